package main

import "github.com/crawlaudit/crawlaudit/ingest/logfmt"

// formatNames lists the built-in log formats for --format's help.
func formatNames() []string {
	var names []string
	for _, f := range logfmt.Formats() {
		names = append(names, f.Name)
	}
	return names
}
