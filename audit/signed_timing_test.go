//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// signedShare is the share of the crawlers' requests signed in the signed
// month of BenchmarkAuditSigned.
const signedShare = 0.1

// BenchmarkAuditSigned measures what verifying signatures costs: the lean
// audit (as `crawlaudit audit` prints the summary) of the realistic month
// of 1 M lines (loggen.RealisticConfig, JSON lines) in which 10 % of the
// crawlers' requests are signed (loggen.Signing: ed25519, a fresh nonce
// each, test signers given as a --keys directory), against the same month
// unsigned. Both months have the same requests; the signed one carries the
// three headers on its signed lines. It reports lines per second and, for
// the signed month, the signature checks computed per op (each signed
// request once: the nonces differ) and those the cache answered.
//
//	BENCH_ROUNDS=5 go test -tags duckdb_arrow -run '^$' -bench AuditSigned -benchtime 1x ./audit/
func BenchmarkAuditSigned(b *testing.B) {
	var (
		once                        sync.Once
		plain, signed, robots, keys string
		nSigned                     int
	)
	parent := b
	setup := func(b *testing.B) {
		once.Do(func() {
			dir, err := os.MkdirTemp("", "bench-signed")
			if err != nil {
				b.Fatal(err)
			}
			parent.Cleanup(func() { os.RemoveAll(dir) })
			cfg := loggen.RealisticConfig(monthLines)
			_, _, robots = benchMonthOf(b, dir, cfg) // the robots.txt history (and a combined copy, unused)
			plain = filepath.Join(dir, "unsigned.jsonl")
			signed = filepath.Join(dir, "signed.jsonl")
			keys = filepath.Join(dir, "keys")
			sg := loggen.NewSigning(signedShare)
			pf, _ := os.Create(plain)
			sf, _ := os.Create(signed)
			pw, _ := loggen.NewWriter(pf, "jsonl")
			sw, _ := loggen.NewWriter(sf, "jsonl")
			loc, _ := time.LoadLocation("Europe/Berlin")
			cfg.Location = loc
			err = loggen.Generate(cfg, func(r *loggen.Request) error {
				if err := pw.Write(r); err != nil {
					return err
				}
				if err := sg.Sign(r); err != nil {
					return err
				}
				return sw.Write(r)
			})
			for _, e := range []error{err, pw.Close(), sw.Close(), pf.Close(), sf.Close(), sg.WriteKeys(keys)} {
				if e != nil {
					b.Fatal(e)
				}
			}
			nSigned = sg.Signed()
		})
	}
	rounds := 1
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	// The variants alternate within each round, so that the machine's
	// drift hits them alike (BENCH_ROUNDS rounds; take the medians).
	// "signed-serial" checks every signature in the judge's goroutine,
	// without the parsing goroutines' precheck.
	for round := range rounds {
		for _, name := range []string{"unsigned", "signed", "signed-serial"} {
			b.Run(fmt.Sprintf("%s/round=%d", name, round+1), func(b *testing.B) {
				defer func(p bool) { sigPrecheck = p }(sigPrecheck)
				sigPrecheck = name != "signed-serial"
				setup(b)
				k, notes, err := webbotauth.LoadDir(keys)
				if err != nil || len(notes) > 0 {
					b.Fatal(err, notes)
				}
				signers, err := webbotauth.LoadSigners(keys)
				if err != nil {
					b.Fatal(err)
				}
				path := plain
				if name != "unsigned" {
					path = signed
				}
				fi, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(fi.Size())
				var (
					valid int64
					st    webbotauth.Stats
				)
				start := time.Now()
				for b.Loop() {
					res, err := Run(context.Background(), Config{Robots: robots, Grace: 24 * time.Hour, Lean: true, Keys: k, Signers: signers}, []string{path})
					if err != nil {
						b.Fatal(err)
					}
					if res.Summary.Input.Parsed != monthLines {
						b.Fatalf("parsed %d lines, want %d", res.Summary.Input.Parsed, monthLines)
					}
					valid = 0
					for _, s := range res.Summary.Signatures {
						if s.Status == string(webbotauth.StatusValid) {
							valid += s.Requests
						}
					}
					st = res.sigStats
					res.Close()
				}
				perOp := time.Since(start).Seconds() / float64(b.N)
				b.ReportMetric(monthLines/perOp, "lines/s")
				if name != "unsigned" {
					// Every signed request verifies (the test signers' keys,
					// fresh nonces): a signature that fails shows here.
					if valid != int64(nSigned) {
						b.Errorf("%d valid signatures, want the %d signed requests", valid, nSigned)
					}
					b.ReportMetric(float64(nSigned), "signed-requests")
					b.ReportMetric(float64(st.Verified), "checks-computed")
					b.ReportMetric(float64(st.CacheHits), "checks-cached")
				}
			})
		}
	}
}
