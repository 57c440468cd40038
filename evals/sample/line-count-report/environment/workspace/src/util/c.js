// one
// two
