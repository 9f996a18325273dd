package firewall

import (
	"bytes"
	"slices"
	"testing"
)

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Text.Files[0].Write(&b, fixtureList(t)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "blocklist.txt", b.Bytes())
}

// TestTextIsNoBlockFormat checks that blocklist.txt stays out of
// --block-format: it is written always, so neither a name nor "all" may
// select it, and no format may write a file of the same name.
func TestTextIsNoBlockFormat(t *testing.T) {
	if slices.Contains(FormatNames(), Text.Name) {
		t.Errorf("FormatNames() holds %q", Text.Name)
	}
	if _, err := ParseFormats(Text.Name); err == nil {
		t.Errorf("ParseFormats(%q) accepts the format written always", Text.Name)
	}
	for _, f := range Formats() {
		for _, file := range f.Files {
			if file.Name == Text.Files[0].Name {
				t.Errorf("format %s writes %s too", f.Name, file.Name)
			}
		}
	}
}
