package bots

import (
	"strings"
	"testing"
)

// FuzzIdentify checks that Identify never panics and answers consistently
// on any input: a bot has a name and a purpose from Purposes, a non-bot is
// the zero Bot, a known bot is in the table, unknown names are bounded, and
// the answer does not change when asked again.
func FuzzIdentify(f *testing.F) {
	for _, tc := range crawlerCases {
		f.Add(tc.ua)
	}
	for _, tc := range scriptCases {
		f.Add(tc.ua)
	}
	for _, ua := range browserCases {
		f.Add(ua)
	}
	for _, s := range []string{"", "-", "(", ")", "((((", "Mozilla/5.0 (compatible; ", "a;b;c", "\xff\xfe(", "+http://", "x@y.z"} {
		f.Add(s)
	}
	valid := map[string]bool{}
	for _, p := range Purposes {
		valid[p] = true
	}
	id, id2 := NewIdentifier(), NewIdentifier()
	f.Fuzz(func(t *testing.T, ua string) {
		b := id.Identify(ua)
		if !b.IsBot {
			if b != (Bot{}) {
				t.Fatalf("Identify(%q) = %+v: a non-bot must be the zero Bot", ua, b)
			}
			return
		}
		if b.Name == "" || !valid[b.Purpose] {
			t.Fatalf("Identify(%q) = %+v: a bot needs a name and a valid purpose", ua, b)
		}
		if b.Known {
			if c, ok := Lookup(b.Name); !ok || c.Name != b.Name {
				t.Fatalf("Identify(%q) = %+v: known but not in the table", ua, b)
			}
		} else if len(b.Name) > maxNameBytes {
			t.Fatalf("Identify(%q): name of %d bytes", ua, len(b.Name))
		}
		if again := id2.Identify(strings.Clone(ua)); again != b {
			t.Fatalf("Identify(%q) = %+v, then %+v", ua, b, again)
		}
	})
}
