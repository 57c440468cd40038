/**
 * Collects streamed output with bounded memory: the first half of the cap and a rolling tail.
 * Beyond the cap the middle is dropped and a note says how much.
 */
export class OutputCapture {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(readonly maxChars: number) {}

  append(text: string): void {
    this.total += text.length;
    const headMax = Math.ceil(this.maxChars / 2);
    if (this.head.length < headMax) {
      const take = headMax - this.head.length;
      this.head += text.slice(0, take);
      text = text.slice(take);
    }
    if (!text) return;
    this.tail += text;
    // Trim only once the tail doubles, so appends stay amortized O(1).
    if (this.tail.length > 2 * this.maxChars) this.tail = this.tail.slice(-this.maxChars);
  }

  get length(): number {
    return this.total;
  }

  toString(): string {
    if (this.total <= this.maxChars) return this.head + this.tail;
    const tailMax = this.maxChars - this.head.length;
    const omitted = this.total - this.head.length - tailMax;
    return `${this.head}\n[... ${omitted} characters omitted (output was ${this.total} characters) ...]\n${this.tail.slice(-tailMax)}`;
  }
}
