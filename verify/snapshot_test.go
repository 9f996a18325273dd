package verify

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// TestSnapshotRegenerates runs the generator on ../shared/data and checks
// that it writes the committed snapshot byte for byte.
func TestSnapshotRegenerates(t *testing.T) {
	data := shareddata.Path(t, "ip-ranges")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("skipping: no go command to run the generator: %v", err)
	}
	out := filepath.Join(t.TempDir(), "snapshot.json.gz")
	cmd := exec.Command(goBin, "run", "./internal/snapgen", "-q", "-data", data, "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./internal/snapgen: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("snapshot.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatalf("the generator writes %d bytes that differ from the committed snapshot.json.gz (%d bytes): run go generate ./verify", len(got), len(committed))
	}
	if !bytes.Equal(committed, snapshotGz) {
		t.Fatal("the embedded snapshot is not snapshot.json.gz")
	}
}

func TestSnapshot(t *testing.T) {
	r, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if r2, _ := Snapshot(); r2 != r {
		t.Error("Snapshot decoded twice")
	}
	info, err := BuiltinSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if info.Size > 2<<20 || info.Size != len(snapshotGz) {
		t.Errorf("snapshot size %d", info.Size)
	}
	if want := time.Date(2026, 8, 21, 14, 46, 19, 0, time.UTC); !info.Made.Equal(want) {
		t.Errorf("made %v, want %v", info.Made, want)
	}
	t.Logf("snapshot: %d bytes, made %s, %d inputs", info.Size, info.Made.Format(time.RFC3339), len(info.Inputs))

	// Every source of sources.json that the data covers holds lists.
	var tbl struct {
		Sources []struct {
			Name          string `json:"name"`
			GoogleHistory string `json:"google_history"`
			IPVerse       string `json:"ipverse"`
		} `json:"sources"`
	}
	if err := json.Unmarshal(sourcesJSON, &tbl); err != nil {
		t.Fatal(err)
	}
	if len(r.Sources()) != len(tbl.Sources) {
		t.Errorf("%d sources, sources.json has %d", len(r.Sources()), len(tbl.Sources))
	}
	for _, e := range tbl.Sources {
		s := r.Source(e.Name)
		if s == nil {
			t.Errorf("source %s is missing", e.Name)
			continue
		}
		covered := e.GoogleHistory != "" || e.IPVerse != ""
		if covered != (len(s.Versions) > 0) {
			t.Errorf("source %s: %d versions, covered by the data: %v", e.Name, len(s.Versions), covered)
		}
		for i := 1; i < len(s.Versions); i++ {
			if !s.Versions[i-1].Created.Before(s.Versions[i].Created) || s.Versions[i-1].samePrefixes(s.Versions[i]) {
				t.Errorf("source %s: versions %d and %d", e.Name, i-1, i)
			}
		}
	}
	for name, n := range map[string]int{"google-common-crawlers": 41, "google-special-crawlers": 25, "google-user-triggered-fetchers": 60} {
		if got := len(r.Source(name).Versions); got != n {
			t.Errorf("%s: %d versions, want %d (shared data README §5.1, google-history)", name, got, n)
		}
	}
}

// TestSnapshotFacts checks known facts of the data, and the boundaries of
// the versions in effect.
func TestSnapshotFacts(t *testing.T) {
	r, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	gv := r.Source("google-common-crawlers").Versions
	created := func(day string) time.Time { // the creation time of the version of that day
		t.Helper()
		for _, v := range gv {
			if v.Created.Format(time.DateOnly) == day {
				return v.Created
			}
		}
		t.Fatalf("no google-common-crawlers version of %s", day)
		return time.Time{}
	}
	may27, jun9 := created("2026-05-27"), created("2026-06-09")
	gpt := r.Source("openai-gptbot").Versions[0].Created
	date := func(s string) time.Time {
		t.Helper()
		d, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		name     string
		bot, ip  string
		at       time.Time
		identity Identity
		evidence string
	}{
		{"googlebot_2026-10-15", "Googlebot", "66.249.66.1", date("2026-10-15T00:00:00Z"), Verified,
			"in google-common-crawlers list of 2026-06-09T14:45:48Z: 66.249.66.0/27"},
		// Before Google's first list (2021): its addresses are verified by
		// it, others never spoofed (the four impostors of the 2015 log).
		{"googlebot_2015", "Googlebot", "66.249.66.1", date("2015-05-17T10:05:03Z"), Verified,
			"in google-common-crawlers list of 2021-11-10T10:00:00Z (its first, newer than the request): 66.249.66.0/27"},
		{"googlebot_2015_impostor", "Googlebot", "177.37.188.215", date("2015-05-17T10:05:03Z"), Unverified,
			"no google-common-crawlers list before 2021-11-10T10:00:00Z"},
		{"googlebot_first_list", "Googlebot", "66.249.66.1", date("2021-11-10T10:00:00.698177Z"), Verified,
			"in google-common-crawlers list of 2021-11-10T10:00:00Z: 66.249.66.0/27"},
		{"googlebot_just_before_first", "Googlebot", "66.249.66.1", date("2021-11-10T10:00:00.698176Z"), Verified,
			"in google-common-crawlers list of 2021-11-10T10:00:00Z (its first, newer than the request): 66.249.66.0/27"},
		// 66.249.78.224/27 appears in the list of 2026-06-09.
		{"between_versions", "Googlebot", "66.249.78.225", jun9.Add(-time.Microsecond), Spoofed,
			"outside the google-common-crawlers list of " + stamp(may27)},
		{"at_creation", "Googlebot", "66.249.78.225", jun9, Verified,
			"in google-common-crawlers list of 2026-06-09T14:45:48Z: 66.249.78.224/27"},
		{"at_creation_IPv6", "Googlebot-Image", "2001:4860:4801:7f::1", jun9, Verified,
			"in google-common-crawlers list of 2026-06-09T14:45:48Z: 2001:4860:4801:7f::/64"},
		{"before_creation_IPv6", "Googlebot-Image", "2001:4860:4801:7f::1", jun9.Add(-time.Second), Spoofed,
			"outside the google-common-crawlers list of " + stamp(may27)},
		{"after_last", "Googlebot", "::ffff:66.249.78.225", date("2030-01-01T00:00:00Z"), Verified,
			"in google-common-crawlers list of 2026-06-09T14:45:48Z: 66.249.78.224/27"},
		{"spoofed_googlebot", "Googlebot", "203.0.113.9", date("2026-10-15T00:00:00Z"), Spoofed,
			"outside the google-common-crawlers list of 2026-06-09T14:45:48Z"},
		// ipverse's history starts 2026-04-11: the instant predates the
		// first GPTBot list, which holds the address.
		{"gptbot_before_first", "GPTBot", "74.7.227.189", date("2026-02-19T11:37:29Z"), Verified,
			"in openai-gptbot list of 2026-04-11T16:28:41Z (its first, newer than the request): 74.7.227.0/24"},
		{"gptbot_just_before_first", "GPTBot", "74.7.227.189", gpt.Add(-time.Microsecond), Verified,
			"in openai-gptbot list of 2026-04-11T16:28:41Z (its first, newer than the request): 74.7.227.0/24"},
		{"gptbot_impostor_before_first", "GPTBot", "192.0.2.91", date("2026-02-19T11:37:29Z"), Unverified,
			"no openai-gptbot list before 2026-04-11T16:28:41Z"},
		{"gptbot_at_first", "GPTBot", "74.7.227.189", gpt, Verified,
			"in openai-gptbot list of 2026-04-11T16:28:41Z: 74.7.227.0/24"},
		{"gptbot_after_last", "GPTBot", "74.7.227.189", date("2026-11-01T00:00:00Z"), Verified,
			"in openai-gptbot list of 2026-04-11T16:28:41Z: 74.7.227.0/24"},
		// Google's user-triggered fetchers: one of three lists in the
		// snapshot, so never spoofed by the snapshot alone.
		{"fetcher_not_spoofed", "FeedFetcher-Google", "203.0.113.9", date("2026-10-15T00:00:00Z"), Unverified,
			"no google-user-triggered-fetchers-google list at hand; no google-user-triggered-agents list at hand; outside the google-user-triggered-fetchers list of 2026-08-07T14:45:42Z"},
		{"yandex_dns_only", "YandexBot", "5.45.192.1", date("2026-10-15T00:00:00Z"), Unverified,
			"YandexBot's operator publishes no ranges"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := r.Check(tc.bot, addr(tc.ip), tc.at.UnixMicro())
			if c.Identity != tc.identity || c.Evidence != tc.evidence {
				t.Errorf("Check = %v %q\n      want %v %q", c.Identity, c.Evidence, tc.identity, tc.evidence)
			}
		})
	}
	if c := r.Check("Googlebot", addr("66.249.78.225"), jun9.UnixMicro()); c.From != jun9.UnixMicro() || c.Until != maxI {
		t.Errorf("interval [%d, %d)", c.From, c.Until)
	}
	if c := r.Check("Googlebot", addr("66.249.78.225"), jun9.UnixMicro()-1); c.From != may27.UnixMicro() || c.Until != jun9.UnixMicro() {
		t.Errorf("interval [%d, %d)", c.From, c.Until)
	}
}
