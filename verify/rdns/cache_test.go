package rdns

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// sampleAnswers are answers of every kind, in address order.
func sampleAnswers() []Answer {
	a := func(s string) netip.Addr { return netip.MustParseAddr(s) }
	return []Answer{
		{Addr: a("9.9.9.9"), Err: "timeout", Time: t0},
		{Addr: a("10.0.0.1"), Err: "nxdomain", Time: t0},
		{Addr: a("66.249.66.1"), Names: []string{"crawl-66-249-66-1.googlebot.com"},
			Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {a("66.249.66.1")}}, Time: t0},
		{Addr: a("66.249.66.3"), Names: []string{"crawl-66-249-66-3.googlebot.com"},
			Forward: map[string][]netip.Addr{"crawl-66-249-66-3.googlebot.com": {}}, Time: t0},
		{Addr: a("66.249.66.10"), Names: []string{"crawl-66-249-66-10.googlebot.com"},
			Err: "timeout", Time: t0},
		{Addr: a("2001:4860:4801:2008::1"), Names: []string{"crawl-2001-4860-4801-2008--1.googlebot.com"},
			Forward: map[string][]netip.Addr{"crawl-2001-4860-4801-2008--1.googlebot.com": {a("2001:4860:4801:2008::1")}}, Time: t0},
	}
}

func TestCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rdns.jsonl")
	c, err := LoadCache(path)
	if err != nil || c.Len() != 0 {
		t.Fatalf("LoadCache(missing) = %v entries, %v; want an empty cache", c.Len(), err)
	}
	want := sampleAnswers()
	for _, i := range []int{4, 2, 5, 0, 3, 1} { // out of order
		c.Put(want[i])
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), data)
	}
	for i, line := range lines {
		if prefix := fmt.Sprintf(`{"addr":"%s"`, want[i].Addr); !strings.HasPrefix(line, prefix) {
			t.Errorf("line %d = %s, want it to start %s (sorted by address)", i+1, line, prefix)
		}
	}
	if want := `{"addr":"10.0.0.1","error":"nxdomain","time":"2026-11-01T12:00:00Z"}`; lines[1] != want {
		t.Errorf("line 2 = %s, want %s", lines[1], want)
	}
	assertOnlyFile(t, dir, "rdns.jsonl")

	c2, err := LoadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Len() != len(want) {
		t.Fatalf("reloaded Len = %d, want %d", c2.Len(), len(want))
	}
	for _, w := range want {
		got, ok := c2.Get(w.Addr)
		w.normalize()
		if !ok || !got.equal(w) {
			t.Errorf("Get(%v) = %+v, %v; want %+v", w.Addr, got, ok, w)
		}
		if (got.Forward == nil) != (w.Forward == nil) {
			t.Errorf("Get(%v).Forward nil-ness changed: %v", w.Addr, got.Forward)
		}
	}
	if _, ok := c2.Get(netip.MustParseAddr("::ffff:66.249.66.1")); !ok {
		t.Error("Get(IPv4-mapped) missed the IPv4 entry")
	}
	if _, ok := c2.Get(netip.MustParseAddr("66.249.66.2")); ok {
		t.Error("Get(absent) found something")
	}
}

func TestCacheSaveNoOpWhenUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rdns.jsonl")
	c, _ := LoadCache(path)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	assertOnlyFile(t, dir) // an empty cache never written writes nothing

	for _, a := range sampleAnswers() {
		c.Put(a)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Put(sampleAnswers()[2]) // the same answer again: no change
	os.Remove(path)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Save of an unchanged cache wrote the file (stat: %v)", err)
	}

	changed := sampleAnswers()[2]
	changed.Time = t0.Add(time.Hour)
	c.Put(changed)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("Save after a change did not write: %v", err)
	}
	// And once saved, it is unchanged again.
	os.Remove(path)
	c.Save()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("second Save rewrote the file (stat: %v)", err)
	}
}

func TestCacheMemoryOnly(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	c, err := LoadCache("")
	if err != nil {
		t.Fatal(err)
	}
	c.Put(sampleAnswers()[2])
	c.Put(Answer{}) // no address: ignored
	if c.Len() != 1 {
		t.Errorf("Len = %d, want 1", c.Len())
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	assertOnlyFile(t, dir)
}

// TestCacheSaveAtomic: a Save that cannot complete leaves the old file and
// no temporary file.
func TestCacheSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rdns.jsonl")
	old := []byte(`{"addr":"10.0.0.1","error":"nxdomain","time":"2026-11-01T12:00:00Z"}` + "\n")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Put(sampleAnswers()[2])
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	assertOnlyFile(t, dir, "rdns.jsonl")
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the old file's 0600", fi.Mode().Perm())
	}

	// The rename fails: the path is now a non-empty directory.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	c2, _ := LoadCache(blocked + "-new")
	c2.path = blocked
	c2.Put(sampleAnswers()[0])
	if err := c2.Save(); err == nil {
		t.Error("Save over a directory succeeded")
	}
	assertOnlyFile(t, dir, "blocked", "rdns.jsonl")

	// The directory does not exist.
	c3, _ := LoadCache(filepath.Join(dir, "missing", "rdns.jsonl"))
	c3.Put(sampleAnswers()[0])
	if err := c3.Save(); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
}

func TestLoadCacheMalformed(t *testing.T) {
	good := `{"addr":"10.0.0.1","error":"nxdomain","time":"2026-11-01T12:00:00Z"}`
	tests := []struct {
		name   string
		line   string
		syntax bool // the error wraps ErrSyntax
	}{
		{"NotJSON", "not json", true},
		{"BadAddr", `{"addr":"10.0.0.300","time":"2026-11-01T12:00:00Z"}`, true},
		{"NoAddr", `{"ptr":["a.googlebot.com"],"time":"2026-11-01T12:00:00Z"}`, true},
		{"ZonedAddr", `{"addr":"fe80::1%eth0","time":"2026-11-01T12:00:00Z"}`, true},
		{"TrailingData", good + ` {}`, true},
		{"WrongType", `{"addr":"10.0.0.1","ptr":"a.googlebot.com"}`, true},
		{"BadForward", `{"addr":"10.0.0.1","forward":{"a.googlebot.com":["nope"]}}`, true},
		{"BadTime", `{"addr":"10.0.0.1","time":"yesterday"}`, true},
		{"TimeOutOfRangeInUTC", `{"addr":"10.0.0.1","time":"0000-01-01T00:00:00+01:00"}`, true},
		{"TooLong", `{"addr":"10.0.0.1","error":"` + strings.Repeat("x", MaxLineLen) + `"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rdns.jsonl")
			data := good + "\n\n" + tt.line + "\n" + good + "\n"
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := LoadCache(path)
			if err == nil {
				t.Fatalf("LoadCache = %d entries, no error", c.Len())
			}
			if want := path + ":3: "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Path != path || pe.Line != 3 {
				t.Errorf("error %v is not a ParseError at line 3", err)
			}
			if errors.Is(err, ErrSyntax) != tt.syntax {
				t.Errorf("errors.Is(%v, ErrSyntax) = %v, want %v", err, !tt.syntax, tt.syntax)
			}
		})
	}
}

func TestLoadCacheNormalizes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rdns.jsonl")
	data := `{"addr":"::ffff:66.249.66.1","ptr":["Crawl-66-249-66-1.GoogleBot.com."],` +
		`"forward":{"crawl-66-249-66-1.googlebot.com.":["::ffff:66.249.66.1","66.249.66.1"]},"time":"2026-11-01T13:00:00+01:00"}` + "\n" +
		`{"addr":"66.249.66.1","ptr":["crawl-66-249-66-1.googlebot.com"],"time":"2026-11-01T12:00:00Z"}` + "\n" +
		"   \n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1 {
		t.Fatalf("Len = %d, want 1 (the mapped and the plain address are one)", c.Len())
	}
	got, _ := c.Get(netip.MustParseAddr("66.249.66.1"))
	if got.Forward != nil {
		t.Errorf("the last line did not win: %+v", got)
	}
	c.Put(Answer{Addr: netip.MustParseAddr("::ffff:66.249.66.1"), Names: []string{"Crawl-66-249-66-1.GoogleBot.com."},
		Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com.": {netip.MustParseAddr("::ffff:66.249.66.1")}},
		Time:    time.Date(2026, 11, 1, 13, 0, 0, 0, time.FixedZone("CET", 3600))})
	got, _ = c.Get(netip.MustParseAddr("66.249.66.1"))
	if o, name := got.Check(googleDomains); o != Confirmed || name != "crawl-66-249-66-1.googlebot.com" {
		t.Errorf("normalized answer %+v: Check = %v %q", got, o, name)
	}
	if got.Time.Location() != time.UTC || !got.Time.Equal(t0) {
		t.Errorf("Time = %v, want %v in UTC", got.Time, t0)
	}
}

func TestLoadCacheUnreadable(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadCache(dir); err == nil {
		t.Error("LoadCache(a directory) succeeded")
	}
}

// assertOnlyFile fails unless dir holds exactly the named entries.
func assertOnlyFile(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("%s holds %q, want %q (a temporary file left behind?)", dir, got, names)
	}
}

func TestResolveLiveFillsCacheThenOffline(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(clientTimeout, 4)
	path := filepath.Join(t.TempDir(), "rdns.jsonl")
	c, _ := LoadCache(path)
	addrs := []netip.Addr{
		netip.MustParseAddr("66.249.66.1"),
		netip.MustParseAddr("::ffff:66.249.66.1"), // the same address
		netip.MustParseAddr("177.37.188.215"),
		netip.MustParseAddr("66.249.66.4"),
		netip.MustParseAddr("66.249.66.5"),
		netip.MustParseAddr("2001:4860:4801:2008::1"),
		{}, // invalid: skipped
	}
	var calls [][2]int
	got := Resolve(context.Background(), r, c, addrs, true, func(done, total int) {
		calls = append(calls, [2]int{done, total})
	})
	if len(got) != 5 || c.Len() != 5 {
		t.Fatalf("live: %d answers, %d cached; want 5 and 5: %v", len(got), c.Len(), got)
	}
	if want := [][2]int{{1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}}; !slices.Equal(calls, want) {
		t.Errorf("progress calls %v, want %v", calls, want)
	}
	wantOutcome := map[string]Outcome{"66.249.66.1": Confirmed, "177.37.188.215": Refuted,
		"66.249.66.4": Refuted, "66.249.66.5": Failed, "2001:4860:4801:2008::1": Confirmed}
	for s, want := range wantOutcome {
		if o, _ := got[netip.MustParseAddr(s)].Check(googleDomains); o != want {
			t.Errorf("live %s: %v, want %v", s, o, want)
		}
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}

	// A later audit without --rdns: the cache answers, no query is made.
	before := srv.queries.Load()
	c2, err := LoadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	unknown := netip.MustParseAddr("66.249.66.8")
	got2 := Resolve(context.Background(), r, c2, append(addrs, unknown), false, func(int, int) {
		t.Error("progress called without live lookups")
	})
	if n := srv.queries.Load() - before; n != 0 {
		t.Errorf("offline Resolve made %d queries, want 0", n)
	}
	if _, ok := got2[unknown]; ok {
		t.Error("offline Resolve has an answer for an address not in the cache")
	}
	if len(got2) != 5 {
		t.Errorf("offline: %d answers, want the 5 cached (the timeout included)", len(got2))
	}
	for addr, a := range got {
		b := got2[addr]
		if !a.equal(b) {
			t.Errorf("offline %v = %+v, want the cached %+v", addr, b, a)
		}
	}
	// Offline with no cache at all: nothing, and still no query.
	if got3 := Resolve(context.Background(), r, nil, addrs, false, nil); len(got3) != 0 || srv.queries.Load() != before {
		t.Errorf("offline without cache: %d answers, %d queries", len(got3), srv.queries.Load()-before)
	}
}

func TestResolveCacheHitsAndRetries(t *testing.T) {
	srv := newTestServer(t, zone, misbehave, 0)
	r := srv.resolver(clientTimeout, 4)
	c, _ := LoadCache("")
	confirmed := netip.MustParseAddr("66.249.66.1")
	nx := netip.MustParseAddr("66.249.66.4")
	refuted := netip.MustParseAddr("177.37.188.215")
	retried := netip.MustParseAddr("66.249.66.8")      // answers now
	fwdRetried := netip.MustParseAddr("66.249.66.9")   // a forward timeout cached
	stillFailing := netip.MustParseAddr("66.249.66.6") // SERVFAIL again
	c.Put(Answer{Addr: confirmed, Names: []string{"crawl-66-249-66-1.googlebot.com"},
		Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {confirmed}}, Time: t0})
	c.Put(Answer{Addr: nx, Err: ErrNXDomain, Time: t0, Checked: true})
	c.Put(Answer{Addr: refuted, Names: []string{"host-177-37-188-215.example-isp.net.br"},
		Forward: map[string][]netip.Addr{"host-177-37-188-215.example-isp.net.br": {refuted}}, Time: t0})

	got := Resolve(context.Background(), r, c, []netip.Addr{confirmed, nx, refuted}, true, nil)
	if n := srv.queries.Load(); n != 0 {
		t.Errorf("cached settled answers: %d queries, want 0", n)
	}
	if len(got) != 3 || !got[confirmed].Time.Equal(t0) {
		t.Errorf("cached answers not returned: %v", got)
	}

	// An NXDOMAIN no resolver check vouched for (a cache of a version
	// without the check) is asked again, like a failure.
	unvouched := netip.MustParseAddr("66.249.66.11")
	c.Put(Answer{Addr: unvouched, Err: ErrNXDomain, Time: t0})
	got = Resolve(context.Background(), r, c, []netip.Addr{unvouched}, true, nil)
	if o, _ := got[unvouched].Check(googleDomains); o != Confirmed || srv.queries.Load() == 0 {
		t.Errorf("unvouched cached NXDOMAIN not asked again: %+v", got[unvouched])
	}

	c.Put(Answer{Addr: retried, Err: ErrTimeout, Time: t0})
	c.Put(Answer{Addr: fwdRetried, Names: []string{"a-crawl-66-249-66-9.googlebot.com", "b-crawl-66-249-66-9.googlebot.com"},
		Forward: map[string][]netip.Addr{}, Err: ErrTimeout, Time: t0})
	c.Put(Answer{Addr: stillFailing, Err: ErrTimeout, Time: t0})
	got = Resolve(context.Background(), r, c, []netip.Addr{confirmed, retried, fwdRetried, stillFailing}, true, nil)
	srv.mu.Lock()
	asked := slices.Clone(srv.asked)
	srv.mu.Unlock()
	for _, q := range asked {
		if strings.HasPrefix(q, "1.66.249.66.in-addr.arpa.") {
			t.Errorf("the cached confirmed address was asked again: %q", asked)
		}
	}
	for _, addr := range []netip.Addr{retried, fwdRetried} {
		if o, _ := got[addr].Check(googleDomains); o != Confirmed {
			t.Errorf("cached timeout for %v not retried: %+v", addr, got[addr])
		}
		if a, _ := c.Get(addr); a.Err != "" || a.Time.Equal(t0) {
			t.Errorf("cache not updated for %v: %+v", addr, a)
		}
	}
	if a, _ := c.Get(stillFailing); a.Err != ErrServFail {
		t.Errorf("still failing: cached %+v, want the new servfail", a)
	}
}

func TestResolveConcurrencyBound(t *testing.T) {
	for _, conc := range []int{1, 3, 8} {
		t.Run(fmt.Sprint(conc), func(t *testing.T) {
			srv := newTestServer(t, zone, nil, 20*time.Millisecond)
			r := srv.resolver(time.Second, conc)
			var addrs []netip.Addr
			for i := range 24 {
				addrs = append(addrs, netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}))
			}
			got := Resolve(context.Background(), r, nil, addrs, true, nil)
			if len(got) != len(addrs) {
				t.Fatalf("%d answers, want %d", len(got), len(addrs))
			}
			for _, a := range got {
				if a.Err != ErrNXDomain {
					t.Errorf("%v: Err = %q, want nxdomain", a.Addr, a.Err)
				}
			}
			max := srv.maxInflight.Load()
			if max > int64(conc) {
				t.Errorf("%d queries in flight at once, Concurrency %d", max, conc)
			}
			if conc > 1 && max < 2 {
				t.Errorf("never more than %d query in flight with Concurrency %d: not concurrent", max, conc)
			}
			if srv.queries.Load() != int64(len(addrs)) {
				t.Errorf("%d queries, want %d", srv.queries.Load(), len(addrs))
			}
		})
	}
}

func TestResolveCanceled(t *testing.T) {
	srv := newTestServer(t, zone, nil, 2*time.Second) // every answer waits 2 s (or the server's end)
	r := srv.resolver(10*time.Second, 2)
	c, _ := LoadCache("")
	var addrs []netip.Addr
	for i := range 10 {
		addrs = append(addrs, netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	progressed := 0
	start := time.Now()
	got := Resolve(ctx, r, c, addrs, true, func(int, int) { progressed++ })
	if d := time.Since(start); d > time.Second {
		t.Errorf("Resolve took %v after cancellation at 100ms", d)
	}
	if len(got) != 0 || c.Len() != 0 || progressed != 0 {
		t.Errorf("canceled lookups kept: %d answers, %d cached, %d progress calls", len(got), c.Len(), progressed)
	}
	if n := srv.queries.Load(); n > 2 {
		t.Errorf("%d queries sent, want at most Concurrency (2)", n)
	}

	// Canceled before the start: nothing is asked.
	before := srv.queries.Load()
	got = Resolve(ctx, r, c, addrs, true, nil)
	if len(got) != 0 || srv.queries.Load() != before {
		t.Errorf("already canceled: %d answers, %d queries", len(got), srv.queries.Load()-before)
	}
}

func TestResolveNilResolverOffline(t *testing.T) {
	c, _ := LoadCache("")
	a := sampleAnswers()[2]
	c.Put(a)
	got := Resolve(context.Background(), nil, c, []netip.Addr{a.Addr}, false, nil)
	if b := got[a.Addr]; len(got) != 1 || !b.equal(a) {
		t.Errorf("Resolve(nil resolver, offline) = %v, want the cached answer", got)
	}
}
