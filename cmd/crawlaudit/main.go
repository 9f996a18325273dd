// Command crawlaudit audits web crawlers' compliance with robots.txt from a
// site's access logs.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
