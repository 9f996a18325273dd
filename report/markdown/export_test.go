package markdown

// CheckTables is checkTables, for the tests of package markdown_test.
var CheckTables = checkTables
