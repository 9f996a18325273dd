//go:build duckdb_arrow

package main

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/webbotauth"
)

const signedGolden = "../../testdata/golden/signed-month.txt"

// signedLayout is the nginx log_format that docs/inputs.md gives for
// signed requests.
const signedLayout = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $host "$http_signature_agent" "$http_signature_input" "$http_signature"`

const chromeUA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"

// signedLine is one request of the month, and how its signature is made.
type signedLine struct {
	at     string // RFC 3339
	ip, ua string
	target string
	signer *testSigner // nil: unsigned
	nonce  string
	// created: the signature's created relative to the request (expired
	// ones lie hours back); signedTarget: the target signed when it is not
	// the logged one (an altered request); replayOf: the index of the line
	// whose headers are sent again.
	created      time.Duration
	signedTarget string
	replayOf     int
}

type testSigner struct {
	origin string
	priv   ed25519.PrivateKey
}

func newTestSigner(origin string, seed byte) *testSigner {
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed
	}
	return &testSigner{origin: origin, priv: ed25519.NewKeyFromSeed(s)}
}

// TestAuditSignedMonth: a month with signed and unsigned requests of
// ChatGPT agent (a browser's User-Agent, signed by chatgpt.com),
// ChatGPT-User, AhrefsBot and impostors (a replayed, an altered and another
// operator's signature), audited with --keys DIR holding test keys for the
// signers (the real ones' private keys are theirs): the rows with their
// identity, evidence and signature outcome, the summary's bot rows and
// signatures, and the block list, against testdata/golden/signed-month.txt.
func TestAuditSignedMonth(t *testing.T) {
	dir := t.TempDir()
	openai := newTestSigner("https://chatgpt.com", 1)
	ahrefs := newTestSigner("https://ahrefs.test", 2)
	stranger := newTestSigner("https://chatgpt.com", 3) // a key chatgpt.com never published
	keys := filepath.Join(dir, "keys")
	for _, s := range []*testSigner{openai, ahrefs} {
		host := strings.TrimPrefix(s.origin, "https://")
		os.MkdirAll(filepath.Join(keys, host), 0o755)
		set, _ := json.Marshal(webbotauth.JWKS{Keys: []webbotauth.JWK{webbotauth.PublicJWK(s.priv.Public().(ed25519.PublicKey))}})
		if err := os.WriteFile(filepath.Join(keys, host, "2026-09-01T00:00:00Z.json"), set, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ahrefs is a test signer: the signer table names a signer only from
	// its operator's own page.
	os.WriteFile(filepath.Join(keys, webbotauth.SignersFile), []byte(`{"signers":[{"origin":"https://ahrefs.test","operator":"Ahrefs","agent":"","source":"test signer"}]}`), 0o644)
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)

	const (
		chatgptUser = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
		ahrefsBot   = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"
		googlebot   = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		// A crawler that never signs, in a log that records signatures:
		// its conduct says signs false.
		mj12bot = "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"
	)
	lines := []signedLine{
		{at: "2026-10-03T10:00:00Z", ip: "3.91.0.10", ua: chromeUA, target: "/", signer: openai, nonce: "agent-1"},
		{at: "2026-10-03T10:00:05Z", ip: "3.91.0.10", ua: chromeUA, target: "/private/report", signer: openai, nonce: "agent-2"},
		{at: "2026-10-03T10:00:10Z", ip: "3.91.0.11", ua: chromeUA, target: "/pricing", signer: openai, nonce: "agent-3", created: -3 * time.Hour},
		{at: "2026-10-03T10:00:20Z", ip: "3.91.0.12", ua: chromeUA, target: "/"},
		{at: "2026-10-04T09:00:00Z", ip: "3.91.0.13", ua: chatgptUser, target: "/docs", signer: openai, nonce: "user-1"},
		{at: "2026-10-04T09:30:00Z", ip: "198.51.100.20", ua: chatgptUser, target: "/docs"},
		{at: "2026-10-04T09:40:00Z", ip: "198.51.100.21", ua: chatgptUser, target: "/docs/2", signer: stranger, nonce: "user-2"},
		{at: "2026-10-05T10:00:00Z", ip: "203.0.113.5", ua: ahrefsBot, target: "/", signer: ahrefs, nonce: "ahrefs-1"},
		{at: "2026-10-05T10:01:00Z", ip: "192.0.2.66", ua: ahrefsBot, target: "/", replayOf: 8},
		{at: "2026-10-05T11:00:00Z", ip: "203.0.113.6", ua: ahrefsBot, target: "/blog"},
		{at: "2026-10-06T12:00:00Z", ip: "192.0.2.67", ua: googlebot, target: "/", signer: openai, nonce: "other-op"},
		{at: "2026-10-06T12:05:00Z", ip: "192.0.2.68", ua: ahrefsBot, target: "/private/x", signer: ahrefs, nonce: "ahrefs-2", signedTarget: "/"},
		{at: "2026-10-07T08:00:00Z", ip: "198.51.100.40", ua: mj12bot, target: "/blog"},
	}
	esc := func(s string) string { return strings.ReplaceAll(s, `"`, `\x22`) }
	var log strings.Builder
	headers := map[int][3]string{}
	for i, l := range lines {
		at, err := time.Parse(time.RFC3339, l.at)
		if err != nil {
			t.Fatal(err)
		}
		h := [3]string{"-", "-", "-"}
		switch {
		case l.replayOf > 0:
			h = headers[l.replayOf-1]
		case l.signer != nil:
			signed := l.target
			if l.signedTarget != "" {
				signed = l.signedTarget
			}
			created := at.Add(l.created)
			a, in, sig, err := webbotauth.Sign(l.signer.priv, webbotauth.Message{Method: "GET", Authority: "www.example.com", Target: signed},
				webbotauth.SignOptions{Origin: l.signer.origin, Created: created, Expires: created.Add(5 * time.Minute), Nonce: l.nonce})
			if err != nil {
				t.Fatal(err)
			}
			h = [3]string{a, in, sig}
		}
		headers[i] = h
		fmt.Fprintf(&log, "%s - - [%s] \"GET %s HTTP/1.1\" 200 1024 \"-\" \"%s\" www.example.com \"%s\" \"%s\" \"%s\"\n",
			l.ip, at.Format("02/Jan/2006:15:04:05 -0700"), l.target, l.ua, esc(h[0]), esc(h[1]), esc(h[2]))
	}
	logFile := filepath.Join(dir, "access.log")
	os.WriteFile(logFile, []byte(log.String()), 0o644)

	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "audit.duckdb")
	code, _, stderr := runCLI(t, "", "audit", "--robots", robots, "--log-format", signedLayout, "--keys", keys,
		"--out", out, "--db", db, "--block-format", "csv", "--quiet", logFile)
	if code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	var got strings.Builder
	code, rows, stderr := runCLI(t, "", "query", "--db", db, "--csv",
		"SELECT strftime(ts, '%Y-%m-%dT%H:%M:%SZ') AS ts, client_ip, target, bot, verdict, identity, signature_status, signer, identity_evidence FROM judged ORDER BY ts")
	if code != exitOK {
		t.Fatalf("query: exit %d: %s", code, stderr)
	}
	got.WriteString("# rows (crawlaudit query: judged)\n" + rows)
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Bots []struct {
			Bot, Host, Identity, Operator string
			Requests, Disallowed, Signed  int64
			Conduct                       struct{ Signs *bool }
		}
		Signatures json.RawMessage
		Blocklist  json.RawMessage
		Input      struct{ Lines int64 }
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	got.WriteString("\n# summary.json bots (bot, identity, operator, requests, disallowed, signed, conduct.signs)\n")
	for _, r := range sum.Bots {
		signs := "absent"
		if r.Conduct.Signs != nil {
			signs = strconv.FormatBool(*r.Conduct.Signs)
		}
		fmt.Fprintf(&got, "%s,%s,%s,%d,%d,%d,%s\n", r.Bot, r.Identity, r.Operator, r.Requests, r.Disallowed, r.Signed, signs)
	}
	// agents.json's evidence of each token, with its signed requests.
	ab, err := os.ReadFile(filepath.Join(out, "agents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var agents map[string]struct {
		Respect  string
		Evidence struct {
			Requests int64
			Signed   *int64
		}
	}
	if err := json.Unmarshal(ab, &agents); err != nil {
		t.Fatal(err)
	}
	got.WriteString("\n# agents.json (token, respect, evidence.requests, evidence.signed)\n")
	for _, token := range slices.Sorted(maps.Keys(agents)) {
		a := agents[token]
		signed := "absent"
		if a.Evidence.Signed != nil {
			signed = strconv.FormatInt(*a.Evidence.Signed, 10)
		}
		fmt.Fprintf(&got, "%s,%s,%d,%s\n", token, a.Respect, a.Evidence.Requests, signed)
	}
	var sigs any
	json.Unmarshal(sum.Signatures, &sigs)
	pretty, _ := json.MarshalIndent(sigs, "", "  ")
	got.WriteString("\n# summary.json signatures\n" + string(pretty) + "\n")
	got.WriteString("\n# summary.json blocklist\n" + string(sum.Blocklist) + "\n")
	csv, err := os.ReadFile(filepath.Join(out, "blocklist.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got.WriteString("\n# blocklist.csv\n" + string(csv))
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(md)
	i := strings.Index(sec, "### Signed requests")
	if i < 0 {
		t.Fatalf("report.md has no signed requests section:\n%s", md)
	}
	sec = sec[i:]
	if j := strings.Index(sec, "\n## "); j >= 0 {
		sec = sec[:j]
	}
	got.WriteString("\n# report.md\n" + sec)
	// The conduct table, with its signs column.
	if i := strings.Index(string(md), "\n## Conduct"); i >= 0 {
		sec = string(md)[i+1:]
		if j := strings.Index(sec, "\n| bot |"); j >= 0 {
			sec = sec[j+1:]
		}
		if j := strings.Index(sec, "\n\n"); j >= 0 {
			sec = sec[:j+1]
		}
		got.WriteString("\n# report.md conduct\n" + sec)
	} else {
		t.Errorf("report.md has no conduct section:\n%s", md)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h3 id="signatures">Signed requests</h3>`, `<td class="n" data-v="100">100%</td>`, `<th scope="row">https://ahrefs.test</th>`,
		`>signs</th>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	if *update {
		if err := os.WriteFile(signedGolden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(signedGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("the signed month differs from %s (run with -update if the change is right):\n%s", signedGolden, got.String())
	}
}

// TestSignedFlagsRefused: a --keys DIR that cannot serve, and gen --signed
// without what it needs, are usage errors that say what to give.
func TestSignedFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x\n"), 0o644)
	log := filepath.Join(dir, "a.log")
	os.WriteFile(log, []byte("192.0.2.1 - - [01/Oct/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "--robots", robots, "--keys", filepath.Join(dir, "none"), log}, "cannot read key directory"},
		{[]string{"audit", "--robots", robots, "--keys", empty, log}, "holds no key directory"},
		{[]string{"gen", "--signed", "0.1", "-o", filepath.Join(dir, "g.log")}, "--signed needs --format jsonl"},
		{[]string{"gen", "--signed", "0.1", "--format", "jsonl", "-o", filepath.Join(dir, "g.log")}, "--signed needs --keys-out"},
		{[]string{"gen", "--signed", "2", "--format", "jsonl", "--keys-out", empty, "-o", filepath.Join(dir, "g.log")}, "share from 0 to 1"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want a usage error saying %q", c.args, code, stderr, c.want)
		}
	}
}
