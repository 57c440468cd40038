/** A refusal in LangGraph's shape (`{detail}`), with its HTTP status. */
export class LgError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422 | 503,
    message: string,
  ) {
    super(message);
  }
}
