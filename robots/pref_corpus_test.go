package robots

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// prefCorpusCount is what the preference pass finds in a set of real
// robots.txt files.
type prefCorpusCount struct {
	files, withUsage, withSignal int
	diags                        map[Code]int
	aiKeys                       map[string]int // unknown keys that look like AI opt-outs
}

func (c *prefCorpusCount) add(t *testing.T, name string, data []byte) {
	c.files++
	f := Parse(data)
	var usage, signal bool
	for _, st := range f.Preferences {
		usage, signal = usage || st.Kind == KindContentUsage, signal || st.Kind == KindContentSignal
	}
	for _, g := range f.Groups {
		for _, st := range g.Preferences {
			usage, signal = usage || st.Kind == KindContentUsage, signal || st.Kind == KindContentSignal
		}
	}
	if usage {
		c.withUsage++
	}
	if signal {
		c.withSignal++
	}
	for _, d := range f.Diagnostics {
		if strings.HasPrefix(string(d.Code), "preference-") {
			c.diags[d.Code]++
		}
		if d.Code == CodeUnknownKey || d.Code == CodeMisspelledKey {
			if k, ok := aiOptOutKey(d.Message); ok {
				c.aiKeys[k]++
			}
		}
	}
	// Every crawler's lookup answers, under every profile.
	var buf []byte
	for _, p := range Profiles {
		r := Compile(f, p)
		for _, agent := range []string{"GPTBot", "ClaudeBot", "Googlebot", "Mozilla/5.0 (compatible; PerplexityBot/1.0)"} {
			var prefs Preferences
			prefs, buf = r.Resolve(agent).PreferencesString("/some/page.html?q=1", buf)
			for _, pr := range prefs {
				if pr.Value != Unset && (pr.Line < 1 || pr.Line > f.Lines) {
					t.Fatalf("%s: %s %s: preference from line %d of %d", name, p, agent, pr.Line, f.Lines)
				}
			}
		}
	}
}

// aiOptOutKey returns the key of an "unknown key" message when it names an
// AI opt-out of some kind ("DisallowAITraining", "noai"), lower-cased.
func aiOptOutKey(msg string) (string, bool) {
	if !strings.HasPrefix(msg, "unknown key ") {
		return "", false
	}
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(msg[i+1:], '"')
	if j < 0 {
		return "", false
	}
	k := strings.ToLower(msg[i+1 : i+1+j])
	if strings.ContainsAny(k, " <\\") {
		return "", false
	}
	for _, w := range []string{"ai", "train", "llm", "gpt", "usage", "signal", "tdm"} {
		if strings.Contains(k, w) {
			return k, true
		}
	}
	return "", false
}

// TestPreferencesRealCorpus parses the real robots.txt collections in
// ../shared/data (robots-corpus/, robots-history/) for their preference
// lines: nothing panics, every lookup answers, and the counts are logged for
// docs/preferences.md (go test -run TestPreferencesRealCorpus -v ./robots).
func TestPreferencesRealCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the real corpus in -short mode")
	}
	total := prefCorpusCount{diags: map[Code]int{}, aiKeys: map[string]int{}}
	for _, rel := range []string{"robots-corpus/protego-top10k-2019.tar.gz", "robots-corpus/egonkm-robots-2024-05.tar.gz"} {
		c := prefCorpusCount{diags: map[Code]int{}, aiKeys: map[string]int{}}
		fh, err := os.Open(shareddata.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatalf("cannot read %s: %v", rel, err)
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("cannot read %s: %v", rel, err)
			}
			if h.Typeflag != tar.TypeReg {
				continue
			}
			data, err := io.ReadAll(io.LimitReader(tr, 4<<20))
			if err != nil {
				t.Fatalf("cannot read %s in %s: %v", h.Name, rel, err)
			}
			c.add(t, h.Name, data)
			total.add(t, h.Name, data)
		}
		fh.Close()
		logPrefCount(t, rel, &c)
	}
	hist := prefCorpusCount{diags: map[Code]int{}, aiKeys: map[string]int{}}
	versions, _ := filepath.Glob(filepath.Join(shareddata.Path(t, "robots-history"), "*", "*.txt"))
	for _, v := range versions {
		data, err := os.ReadFile(v)
		if err != nil {
			t.Fatal(err)
		}
		hist.add(t, v, data)
		total.add(t, v, data)
	}
	logPrefCount(t, "robots-history", &hist)
	logPrefCount(t, "all", &total)
	if total.files < 17000 {
		t.Errorf("%d files read, want the ~17,700 of the corpora and histories", total.files)
	}
}

func logPrefCount(t *testing.T, name string, c *prefCorpusCount) {
	t.Logf("%s: %d files, %d with Content-Usage, %d with Content-Signal", name, c.files, c.withUsage, c.withSignal)
	for code, n := range c.diags {
		t.Logf("%s:   %s: %d", name, code, n)
	}
	keys := make([]string, 0, len(c.aiKeys))
	for k := range c.aiKeys {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return c.aiKeys[keys[i]] > c.aiKeys[keys[j]] || c.aiKeys[keys[i]] == c.aiKeys[keys[j]] && keys[i] < keys[j]
	})
	if len(keys) > 12 {
		keys = keys[:12]
	}
	for _, k := range keys {
		t.Logf("%s:   unknown AI-looking key %q in %d lines", name, k, c.aiKeys[k])
	}
}
