const { nameOf } = require('./service');
console.log(nameOf(1));
