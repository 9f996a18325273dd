package ingest

import (
	"fmt"
	"strings"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// resolveFormat returns the format that Options impose on every input, or
// nil for detection per file. LogFormat wins over JSONFields, which wins
// over Format; giving two of them is an error.
func resolveFormat(o *Options) (*formatEntry, error) {
	given := 0
	for _, s := range []string{o.LogFormat, o.JSONFields} {
		if s != "" {
			given++
		}
	}
	if o.Format != "" && o.Format != "auto" {
		given++
	}
	if given > 1 {
		return nil, fmt.Errorf("give only one of a format name (%q), a log layout and a JSON field mapping", o.Format)
	}
	switch {
	case o.LogFormat != "":
		f, err := logfmt.NewCustom(o.LogFormat)
		if err != nil {
			return nil, err
		}
		return &formatEntry{Format: f}, nil
	case o.JSONFields != "":
		m, err := logfmt.ParseJSONMapping(o.JSONFields)
		if err != nil {
			return nil, err
		}
		f, err := logfmt.NewJSON(m)
		if err != nil {
			return nil, err
		}
		return &formatEntry{Format: f}, nil
	case o.Format == "" || o.Format == "auto":
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
