const { getUser } = require('./users');
exports.nameOf = (id) => getUser(id).name;
