function getUser(id) {
  return { id, name: 'Ada' };
}
module.exports = { getUser };
