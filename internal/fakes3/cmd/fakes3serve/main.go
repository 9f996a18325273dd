// Command fakes3serve serves a directory as an S3 bucket on 127.0.0.1, for
// scripts/objstore-bench.sh: the audit reads the same bytes from a file and
// from an object, the server in a process of its own so that the audit's
// peak memory is its own.
//
//	fakes3serve -bucket logs -dir DIR
//
// It prints the server's URL on a line of its own, then serves until it is
// killed. Any credentials do (no signature is checked).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/crawlaudit/crawlaudit/internal/fakes3"
)

func main() {
	bucket := flag.String("bucket", "logs", "the bucket's name")
	dir := flag.String("dir", "", "the directory whose files are the bucket's objects")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "fakes3serve: give -dir DIR")
		os.Exit(2)
	}
	h, err := fakes3.DirHandler(*bucket, *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakes3serve:", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakes3serve:", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(os.Stderr, "fakes3serve:", err)
		os.Exit(1)
	}
}
