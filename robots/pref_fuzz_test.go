package robots

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPreferences: any Content-Usage or Content-Signal value, in a group
// and outside any, parses without panic; a dictionary error points inside
// the value; every preference found names a preference line of the file;
// the lookup answers for any target under every profile. The corpus is in
// testdata/fuzz/FuzzPreferences.
func FuzzPreferences(f *testing.F) {
	for _, s := range []string{
		"train-ai=n", "/ai-ok/ train-ai=y", "train-ai=y, search=n", "train-ai=y, train-ai, search=n, search=\"n\"",
		"train-ai;allow=n, train-ai=y", "train-ai;has;parameters=\"?\";", "search=yes,ai-train=no,use=reference",
		"ai=n", "Train-AI=n", "train-ai=n,", "a=(1 2);x, b=:aGk=:, c=%\"caf%c3%a9\", d=@1, e=-1.5, f=?0",
		"/*.pdf$ ai-input=no", "*.pdf train-ai=n", "/x\t search=y", "=", "(", "a=(", "a=\"\\", "a=%\"%c3\"",
	} {
		f.Add(s, "/ai-ok/x?y=1")
	}
	f.Fuzz(func(t *testing.T, value, target string) {
		if ms, err := parseSFDictionary(nil, value); err != nil {
			if e, ok := err.(*sfError); !ok || e.offset < 0 || e.offset > len(value) {
				t.Fatalf("%q: error %v outside the value", value, err)
			}
		} else {
			for _, m := range ms {
				if m.key == "" || !strings.Contains(value, m.key) {
					t.Fatalf("%q: member key %q", value, m.key)
				}
			}
		}
		value = strings.NewReplacer("\n", " ", "\r", " ").Replace(value)
		file := Parse([]byte("Content-Signal: " + value + "\nUser-agent: a\nContent-Usage: " + value + "\nContent-Usage: /p " + value + "\nDisallow: /x\n"))
		for _, d := range file.Diagnostics {
			if d.Line < 1 || d.Line > file.Lines || !utf8.ValidString(d.Message) && utf8.ValidString(value) {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		var buf []byte
		for _, p := range Profiles {
			for _, agent := range []string{"a", "b", ""} {
				var prefs Preferences
				prefs, buf = Compile(file, p).Resolve(agent).PreferencesString(target, buf)
				for c, pr := range prefs {
					switch {
					case pr.Value == Unset && (pr.Line != 0 || pr.Kind != KindUnknown):
						t.Fatalf("%s %q: unset %s with line %d", p, agent, Category(c), pr.Line)
					case pr.Value != Unset && !(pr.Line == 1 && pr.Kind == KindContentSignal || (pr.Line == 3 || pr.Line == 4) && pr.Kind == KindContentUsage && agent == "a"):
						t.Fatalf("%s %q: %s from line %d (%s)", p, agent, Category(c), pr.Line, pr.Kind)
					}
				}
			}
		}
	})
}
