package bots

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The labelled corpus: how many real crawlers Identify finds (recall) and
// how many browsers, devices and apps it wrongly calls bots (false
// positives). Nothing of the sets is copied into the repository; the test
// reads them where they are installed and skips with a message when they are
// absent.
//
// Crawlers: every example User-Agent ("instances") of
// ../shared/data/crawlers/crawler-user-agents.json (monperrus/crawler-user-agents).
//
// Non-bots:
//   - uap-core's test resources (Debian package uap-core, /usr/share/uap-core,
//     or the directory in $UAP_CORE_DIR): tests/test_device.yaml labelled by
//     device family — "Spider" is a bot and left out, "Other" (no device
//     recognised: NCSA Mosaic, PostmanRuntime, ...) is unlabelled and left
//     out, so are WhatsApp's fetches (link previews, labelled by the phone
//     that makes them, but once as Spider), every other family (phones, tablets, TVs, consoles, e-readers,
//     watches, feature phones) is a person's device; and every case of
//     test_resources/firefox_user_agent_strings.yaml and
//     opera_mini_user_agent_strings.yaml (browsers).
//   - the human traffic of the real logs in ../shared/data/real-logs: a
//     distinct User-Agent that starts like a browser ("Mozilla/" or
//     "Opera/"), that uap-go names a browser family on a device that is not
//     "Spider", and that holds no URL, no '@' and none of bot, crawl, spider,
//     slurp (the data README's count of bot lines). User-Agents that fail
//     any of these are unlabelled, not counted either way.

// minRecall and maxFalsePositiveShare are the corpus floors.
const (
	minRecall             = 0.97
	maxFalsePositiveShare = 0.005
)

// uapCoreDir returns the directory of uap-core's test resources, or skips.
func uapCoreDir(t *testing.T) string {
	t.Helper()
	dirs := []string{os.Getenv("UAP_CORE_DIR"), "/usr/share/uap-core", "/usr/local/share/uap-core"}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "tests", "test_device.yaml")); err == nil {
			return d
		}
	}
	t.Skip("skipping: uap-core's test resources are absent (apt-get install uap-core, or set UAP_CORE_DIR)")
	return ""
}

// uapCases reads the (user_agent_string, family) pairs of a uap-core test
// file. The files are regular enough for a line reader: each case starts
// with "- user_agent_string: '...'" and has a "family: '...'" line.
func uapCases(t *testing.T, path string) [][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "- user_agent_string:"); ok {
			out = append(out, [2]string{yamlScalar(v), ""})
		} else if v, ok := strings.CutPrefix(line, "family:"); ok && len(out) > 0 && out[len(out)-1][1] == "" {
			out[len(out)-1][1] = yamlScalar(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// yamlScalar decodes a flow scalar as uap-core writes them: single quotes
// (” for '), double quotes (\" and \\), or plain.
func yamlScalar(v string) string {
	v = strings.TrimSpace(v)
	switch {
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
	}
	return v
}

// labelledNonBots returns the non-bot set, by source.
func labelledNonBots(t *testing.T) map[string][]string {
	dir := uapCoreDir(t)
	sets := map[string][]string{}
	for _, c := range uapCases(t, filepath.Join(dir, "tests", "test_device.yaml")) {
		// WhatsApp's own fetches (link previews) are labelled by device,
		// except "WhatsApp/2.17.70 W", a Spider: unlabelled.
		if c[1] != "Spider" && c[1] != "Other" && c[1] != "" && !strings.HasPrefix(c[0], "WhatsApp") {
			sets["uap-core devices"] = append(sets["uap-core devices"], c[0])
		}
	}
	for _, f := range []string{"firefox_user_agent_strings.yaml", "opera_mini_user_agent_strings.yaml"} {
		for _, c := range uapCases(t, filepath.Join(dir, "test_resources", f)) {
			sets["uap-core "+strings.TrimSuffix(f, "_user_agent_strings.yaml")] = append(sets["uap-core "+strings.TrimSuffix(f, "_user_agent_strings.yaml")], c[0])
		}
	}
	id := NewIdentifier()
	seen := map[string]bool{}
	for _, rel := range []string{
		"real-logs/elastic-apache-semicomplete-2015/apache_logs.gz",
		"real-logs/almhuette-raith-apache-2019/access.log.gz",
		"real-logs/zanbil-shop-nginx-2019-sample/access.log",
	} {
		for _, l := range readLog(t, rel) {
			ua, ok := userAgentOf(l)
			if !ok || seen[ua] {
				continue
			}
			seen[ua] = true
			if humanLogUA(id, ua) {
				sets["real-log humans"] = append(sets["real-log humans"], ua)
			}
		}
	}
	return sets
}

// humanLogUA labels a User-Agent of a real log as a person's browser (see
// the file comment).
func humanLogUA(id *Identifier, ua string) bool {
	if !strings.HasPrefix(ua, "Mozilla/") && !strings.HasPrefix(ua, "Opera/") {
		return false
	}
	l := strings.ToLower(ua)
	if containsAny(l, "http", "www.", "@", "bot", "crawl", "spider", "slurp") {
		return false
	}
	id.uapCalls.Store(0)
	family, device := id.uapParse(ua)
	return device != "Spider" && isBrowserFamily(family)
}

// cause says which step of Identify named a bot.
func cause(ua string) string {
	if i := matchTable(strings.TrimSpace(ua)); i >= 0 {
		return "table"
	}
	if a := analyse(strings.TrimSpace(ua)); a.name != "" {
		return "generic: " + a.why
	}
	return "uap-go Spider"
}

// TestLabelledCorpus measures recall on crawler-user-agents and false
// positives on the labelled non-bot set, by cause, and holds both to their
// floors.
func TestLabelledCorpus(t *testing.T) {
	list := loadCrawlerUserAgents(t)
	nonBots := labelledNonBots(t)
	id := NewIdentifier()

	total, found := 0, 0
	var misses []string
	for _, e := range list {
		for _, ua := range e.Instances {
			total++
			id.uapCalls.Store(0) // the corpus is larger than MaxUAPCalls
			if id.Identify(ua).IsBot {
				found++
			} else {
				misses = append(misses, ua)
			}
		}
	}
	recall := float64(found) / float64(total)

	sources := make([]string, 0, len(nonBots))
	for s := range nonBots {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	n, fp := 0, 0
	byCause := map[string][]string{}
	var perSource []string
	for _, s := range sources {
		k := 0
		for _, ua := range nonBots[s] {
			n++
			id.uapCalls.Store(0)
			if b := id.Identify(ua); b.IsBot {
				fp++
				k++
				c := cause(ua)
				byCause[c] = append(byCause[c], fmt.Sprintf("%s <- %s", b.Name, ua))
			}
		}
		perSource = append(perSource, fmt.Sprintf("%s %d/%d", s, k, len(nonBots[s])))
	}
	share := float64(fp) / float64(n)
	t.Logf("recall: %d of %d crawler-user-agents instances are bots (%.2f %%), %d missed", found, total, 100*recall, len(misses))
	t.Logf("false positives: %d of %d labelled non-bots are called bots (%.2f %%): %s", fp, n, 100*share, strings.Join(perSource, ", "))
	causes := make([]string, 0, len(byCause))
	for c := range byCause {
		causes = append(causes, c)
	}
	sort.Slice(causes, func(i, j int) bool { return len(byCause[causes[i]]) > len(byCause[causes[j]]) })
	for _, c := range causes {
		t.Logf("  %4d %s", len(byCause[c]), c)
		for _, s := range byCause[c] {
			t.Logf("         %s", s)
		}
	}
	for _, m := range misses {
		t.Logf("  miss: %s", m)
	}
	if recall < minRecall {
		t.Errorf("recall %.4f, want at least %.2f", recall, minRecall)
	}
	if share > maxFalsePositiveShare {
		t.Errorf("false positives %.4f, want at most %.3f", share, maxFalsePositiveShare)
	}
}
