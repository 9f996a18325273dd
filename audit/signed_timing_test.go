//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
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
//	go test -tags duckdb_arrow -run '^$' -bench AuditSigned -benchtime 1x -count 5 ./audit/
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
	for _, name := range []string{"unsigned", "signed"} {
		b.Run(name, func(b *testing.B) {
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
			if name == "signed" {
				path = signed
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			var valid int64
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
				res.Close()
			}
			perOp := time.Since(start).Seconds() / float64(b.N)
			b.ReportMetric(monthLines/perOp, "lines/s")
			if name == "signed" {
				// Every signed request verifies (the test signers' keys,
				// fresh nonces): a signature that fails shows here.
				if valid != int64(nSigned) {
					b.Errorf("%d valid signatures, want the %d signed requests", valid, nSigned)
				}
				b.ReportMetric(float64(nSigned), "signed-requests")
			}
		})
	}
}
