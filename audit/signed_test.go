//go:build duckdb_arrow

package audit

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// signedMonth writes the realistic month of lines lines as JSON lines with
// a tenth of the crawlers' requests signed (loggen.Signing), and the test
// signers' keys; it returns the robots.txt history, the log and the keys
// and signer rows to audit it with.
func signedMonth(t *testing.T, lines int) (robots, log string, keys *webbotauth.Keys, signers []webbotauth.Signer) {
	t.Helper()
	dir := t.TempDir()
	cfg := loggen.RealisticConfig(lines)
	robots, _ = writeMonth(t, dir, cfg, "combined", false)
	log = filepath.Join(dir, "signed.jsonl")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := loggen.NewWriter(f, "jsonl")
	sg := loggen.NewSigning(0.1)
	err = loggen.Generate(cfg, func(r *loggen.Request) error {
		if err := sg.Sign(r); err != nil {
			return err
		}
		return w.Write(r)
	})
	for _, e := range []error{err, w.Close(), f.Close(), sg.WriteKeys(filepath.Join(dir, "keys"))} {
		if e != nil {
			t.Fatal(e)
		}
	}
	if sg.Signed() == 0 {
		t.Fatal("no request signed")
	}
	keys, notes, err := webbotauth.LoadDir(filepath.Join(dir, "keys"))
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	if signers, err = webbotauth.LoadSigners(filepath.Join(dir, "keys")); err != nil {
		t.Fatal(err)
	}
	return robots, log, keys, signers
}

// TestSignedLeanSameOutputs: a month with signed requests gives the same
// summary.json (signed per row, signatures) and table with the judge's
// counts (Config.Lean) as with every request stored, and every signed
// request of an operator's crawler verifies it.
func TestSignedLeanSameOutputs(t *testing.T) {
	robots, log, keys, signers := signedMonth(t, 30_000)
	cfg := Config{Robots: robots, Keys: keys, Signers: signers}
	full, _, _ := leanOutputs(t, cfg, []string{log})
	cfg.Lean = true
	lean, wasLean, _ := leanOutputs(t, cfg, []string{log})
	if !wasLean {
		t.Fatal("the lean pass did not finish")
	}
	for name, want := range full {
		if got := lean[name]; !bytes.Equal(got, want) {
			t.Errorf("%s differs between the lean and the full audit:\nlean:\n%s\nfull:\n%s", name, got, want)
		}
	}
	var s struct {
		Bots []struct {
			Bot, Identity    string
			Requests, Signed int64
			Conduct          struct{ Signs *bool }
		}
		Signatures []struct {
			Status   string
			Requests int64
		}
	}
	if err := json.Unmarshal(full["summary.json"], &s); err != nil {
		t.Fatal(err)
	}
	var signed, valid int64
	var signs, unsigned int
	for _, b := range s.Bots {
		signed += b.Signed
		// The log records signatures: every row says whether it signs.
		switch {
		case b.Conduct.Signs == nil:
			t.Errorf("%s (%s): conduct.signs left out in a log with signatures", b.Bot, b.Identity)
		case *b.Conduct.Signs != (b.Signed > 0):
			t.Errorf("%s (%s): conduct.signs %v with %d signed requests", b.Bot, b.Identity, *b.Conduct.Signs, b.Signed)
		case *b.Conduct.Signs:
			signs++
		default:
			unsigned++
		}
		if b.Signed > 0 && b.Identity != "verified" {
			t.Errorf("%s: %d validly signed requests of its operator in a %s row", b.Bot, b.Signed, b.Identity)
		}
	}
	for _, g := range s.Signatures {
		if g.Status != "valid" {
			t.Errorf("a generated signature is %s (%d requests)", g.Status, g.Requests)
		}
		valid += g.Requests
	}
	if signed == 0 || signed != valid {
		t.Errorf("signed over the rows %d, valid signatures %d: want the same, not 0", signed, valid)
	}
	if signs == 0 || unsigned == 0 {
		t.Errorf("%d rows sign, %d do not: want both", signs, unsigned)
	}
}

// TestUnsignedSummaryHasNoSignatures: an audit of unsigned logs writes no
// "signatures" and a zero "signed" on every row.
func TestUnsignedSummaryHasNoSignatures(t *testing.T) {
	res, err := Run(context.Background(), Config{Robots: "../testdata/sample/robots", Lean: true}, []string{"../testdata/sample/access-2026-10.log.gz"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if res.Summary.Signatures != nil {
		t.Errorf("signatures = %v, want none", res.Summary.Signatures)
	}
	for _, b := range res.Summary.Bots {
		if b.Signed != 0 {
			t.Errorf("%s: signed %d in an unsigned log", b.Bot, b.Signed)
		}
		if b.Conduct.Signs != nil {
			t.Errorf("%s: conduct.signs %v in a log that records no signature", b.Bot, *b.Conduct.Signs)
		}
	}
}

// TestPartialRefusesSigned: a judge that cannot verify signatures
// (crawlaudit-beam's workers) stops at a signed request with a message
// that says what to do, rather than give other identities than the audit.
func TestPartialRefusesSigned(t *testing.T) {
	a, err := NewPartialAuditor(Config{Robots: partialSampleRobots})
	if err != nil {
		t.Fatal(err)
	}
	line := `{"time":"2026-10-05T10:00:00Z","remote_addr":"203.0.113.5","method":"GET","uri":"/","status":200,"bytes":1,"user_agent":"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)","host":"www.example.com","signature_agent":"sig1=\"https://ahrefs.test\"","signature_input":"sig1=(\"@authority\");created=1;keyid=\"k\"","signature":"sig1=:AAAA:"}` + "\n"
	log := filepath.Join(t.TempDir(), "signed.jsonl")
	os.WriteFile(log, []byte(line), 0o644)
	_, err = a.Judge(context.Background(), []string{log}, func(rec arrow.RecordBatch) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "crawlaudit audit") {
		t.Fatalf("Judge of a signed log: %v, want an error saying to use crawlaudit audit", err)
	}
}

// TestSignedHostile: what a log may hold against the verifier, through the
// whole audit: malformed structured fields, a signature over components the
// log lacks, an unknown algorithm, a header of 64 KiB, and 10,000 distinct
// nonces from one address (docs/signatures.md, bounded work). Nothing
// panics; none of these makes a request spoofed, nor a browser a bot;
// each counts under its outcome.
func TestSignedHostile(t *testing.T) {
	dir := t.TempDir()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize))
	kdir := filepath.Join(dir, "keys", "agent.test")
	os.MkdirAll(kdir, 0o755)
	set, _ := json.Marshal(webbotauth.JWKS{Keys: []webbotauth.JWK{webbotauth.PublicJWK(priv.Public().(ed25519.PublicKey))}})
	os.WriteFile(filepath.Join(kdir, "2026-01-01T00:00:00Z.json"), set, 0o644)
	keys, _, err := webbotauth.LoadDir(filepath.Join(dir, "keys"))
	if err != nil {
		t.Fatal(err)
	}
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	const (
		chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36"
		bot    = "curl/8.5.0" // a script: no range list decides it, so only a signature could
	)
	at := time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)
	type hdr struct{ agent, input, sig string }
	valid := func(target, nonce string) hdr {
		a, in, s, err := webbotauth.Sign(priv, webbotauth.Message{Method: "GET", Authority: "www.example.com", Target: target},
			webbotauth.SignOptions{Origin: "https://agent.test", Created: at, Expires: at.Add(time.Hour), Nonce: nonce})
		if err != nil {
			t.Fatal(err)
		}
		return hdr{a, in, s}
	}
	good := valid("/", "x")
	var lines []string
	add := func(ua string, h hdr) {
		b, _ := json.Marshal(map[string]any{"time": at.Format(time.RFC3339), "remote_addr": "198.51.100.9", "method": "GET", "uri": "/",
			"status": 200, "bytes": 1, "user_agent": ua, "host": "www.example.com",
			"signature_agent": h.agent, "signature_input": h.input, "signature": h.sig})
		lines = append(lines, string(b))
	}
	cases := []hdr{
		{good.agent, "sig1=(((", good.sig},                                                    // malformed structured field
		{good.agent, strings.Replace(good.input, `"@path"`, `"content-digest"`, 1), good.sig}, // a component the log lacks
		{good.agent, strings.Replace(good.input, `alg="ed25519"`, `alg="hmac-sha256"`, 1), good.sig},
		{good.agent, good.input + ";x=\"" + strings.Repeat("a", 20<<10) + "\"", good.sig}, // over the 16 KiB read
		{good.agent, good.input + ";x=\"" + strings.Repeat("a", 64<<10) + "\"", good.sig}, // 64 KiB: a line too long
	}
	for _, ua := range []string{chrome, bot} {
		for _, h := range cases {
			add(ua, h)
		}
	}
	for i := range 10_000 {
		add(chrome, valid("/", fmt.Sprint("nonce-", i)))
	}
	log := filepath.Join(dir, "hostile.jsonl")
	os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	res, err := Run(context.Background(), Config{Robots: robots, Keys: keys, Lean: true}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for _, b := range res.Summary.Bots {
		if b.Identity == "spoofed" {
			t.Errorf("%s: spoofed (%d requests) by signatures that could not be checked", b.Bot, b.Requests)
		}
		if b.Bot != "curl" {
			t.Errorf("bot row %s: a browser with no agent in the signer table must stay a browser", b.Bot)
		}
	}
	got := map[string]int64{}
	for _, g := range res.Summary.Signatures {
		got[g.Status] += g.Requests
	}
	if n := res.Summary.Input.RejectedReasons["line too long"]; n != 2 {
		t.Errorf("the lines with a 64 KiB header: %d rejected as too long, want 2", n)
	}
	if got["unverifiable"] != 8 || got["valid"] != 10_000 {
		t.Errorf("outcomes %v, want 8 unverifiable and 10000 valid; signatures %+v; input %+v", got, res.Summary.Signatures, res.Summary.Input)
	}
}

// TestSignedFoldedRows: a row folding the bots past maxSummaryBots signs
// when any of the bots it holds does (docs/conduct.md), and says so, as
// every row of a log with signatures does.
func TestSignedFoldedRows(t *testing.T) {
	robots, log, keys, signers := signedMonth(t, 30_000)
	run := func(limit int) *report.Summary {
		t.Helper()
		old := maxSummaryBots
		maxSummaryBots = limit
		defer func() { maxSummaryBots = old }()
		res, err := Run(context.Background(), Config{Robots: robots, Keys: keys, Signers: signers}, []string{log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Close() })
		return &res.Summary
	}
	all := run(1 << 20)
	const limit = 3
	if len(all.Bots) <= limit+1 {
		t.Fatalf("%d bot rows: too few to fold", len(all.Bots))
	}
	type key struct{ host, identity string }
	signs := map[key]bool{}
	for _, r := range all.Bots[limit:] {
		k := key{r.Host, r.Identity}
		signs[k] = signs[k] || r.Signed > 0
	}
	got := run(limit)
	folded := got.Bots[limit:]
	if len(folded) != len(signs) {
		t.Fatalf("%d folded rows, want %d", len(folded), len(signs))
	}
	var signing int
	for _, r := range folded {
		want := signs[key{r.Host, r.Identity}]
		if r.Conduct.Signs == nil || *r.Conduct.Signs != want {
			t.Errorf("folded row %s (%s): signs %s, want %v", r.Host, r.Identity, report.YesNoUnknown(r.Conduct.Signs), want)
		}
		if want {
			signing++
		}
	}
	if signing == 0 {
		t.Error("no folded row holds a bot that signs: the case tests nothing")
	}
}
