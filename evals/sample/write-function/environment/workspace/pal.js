function isPalindrome(text) {
  // TODO
}
module.exports = { isPalindrome };
