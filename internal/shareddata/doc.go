// Package shareddata locates the real-world data kept beside the repository
// in ../shared/data (logs, robots.txt corpora, crawler lists). The data is
// never copied into the repository; tests that use it skip with a message
// when it is absent, as it is in a clone elsewhere.
package shareddata
