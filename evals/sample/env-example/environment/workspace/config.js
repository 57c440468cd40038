module.exports = {
  port: Number(process.env.PORT ?? 3000),
  db: process.env.DATABASE_URL,
  debug: process.env.DEBUG === '1',
  key: process.env.API_KEY,
};
