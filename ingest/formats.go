package ingest

import (
	"fmt"
	"strings"
)

// resolveFormat returns the format that Options impose on every input, or
// nil for detection per file.
func resolveFormat(o *Options) (*formatEntry, error) {
	if o.Format == "" || o.Format == "auto" {
		return nil, nil
	}
	for _, f := range o.Formats {
		if f.Name == o.Format {
			return &formatEntry{Format: f}, nil
		}
	}
	names := make([]string, 0, len(o.Formats))
	for _, f := range o.Formats {
		names = append(names, f.Name)
	}
	return nil, fmt.Errorf("unknown log format %q (known: auto, %s)", o.Format, strings.Join(names, ", "))
}
