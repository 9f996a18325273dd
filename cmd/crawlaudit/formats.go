package main

import (
	"fmt"
	"strings"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// formatNames lists the built-in log formats for --format's help.
func formatNames() []string {
	var names []string
	for _, f := range logfmt.Formats() {
		names = append(names, f.Name)
	}
	return names
}

// firstLineOf returns the first of the joined input errors in err, with a
// count of the others, for a one-line message.
func firstLineOf(err error) string {
	msg := err.Error()
	i := strings.IndexByte(msg, '\n')
	if i < 0 {
		return msg
	}
	return fmt.Sprintf("%s (and %d more input errors)", msg[:i], strings.Count(msg, "\n"))
}
