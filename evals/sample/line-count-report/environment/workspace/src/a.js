const a = 1;
const b = 2;
console.log(a + b);
