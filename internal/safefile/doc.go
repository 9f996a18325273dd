// Package safefile reads the small data files a user names on the command
// line (range lists, operator rules, keys) so that a wrong path can neither
// grow memory without bound nor hang the run: only a regular file is read
// (a symbolic link is followed to its target), and only up to a size limit.
package safefile
