//go:build duckdb_arrow

package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/miekg/dns"
)

// brokenDNS is a DNS server on 127.0.0.1 that answers every query the same
// way: "nxdomain", "servfail", "refused", or "silent" (no reply at all), as
// the resolver of a sandbox without network does. It counts the queries.
func brokenDNS(t *testing.T, how string) (addr string, queries *atomic.Int64) {
	t.Helper()
	queries = new(atomic.Int64)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		queries.Add(1)
		m := new(dns.Msg)
		switch how {
		case "nxdomain":
			m.SetRcode(r, dns.RcodeNameError)
		case "servfail":
			m.SetRcode(r, dns.RcodeServerFailure)
		case "refused":
			m.SetRcode(r, dns.RcodeRefused)
		default:
			return
		}
		w.WriteMsg(m)
	})}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String(), queries
}

// auditOut runs the sample audit into a new --out directory with extra
// flags and returns its summary.json, its block list and stderr.
func auditOut(t *testing.T, extra ...string) (summary map[string]any, block []string, stderr string) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"audit", "--out", dir, "--robots", sampleRobots}, extra...)
	code, _, stderr := runCLI(t, "", append(args, sampleLog)...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", extra, code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &summary); err != nil {
		t.Fatal(err)
	}
	for _, a := range readAddrs(t, filepath.Join(dir, "blocklist.txt")) {
		block = append(block, a.String())
	}
	return summary, block, stderr
}

// spoofedRows returns "bot host requests" of the spoofed rows of a summary.
func spoofedRows(s map[string]any) []string {
	var out []string
	for _, b := range s["bots"].([]any) {
		r := b.(map[string]any)
		if r["identity"] == "spoofed" {
			out = append(out, r["bot"].(string)+" "+r["host"].(string)+" "+jsonNumber(r["requests"]))
		}
	}
	slices.Sort(out)
	return out
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAuditRDNSBrokenResolver: the sample audited with --rdns against a
// resolver that says NXDOMAIN (or SERVFAIL, or REFUSED, or nothing) to
// everything has no spoofed row and no blocked address that the audit
// without --rdns does not have, says so in one warning, and reports the
// resolver failing in summary.json; the cache it was given gets no answer
// of that resolver, so a later audit with the cache alone is the audit
// without --rdns again.
func TestAuditRDNSBrokenResolver(t *testing.T) {
	base, baseBlock, baseErr := auditOut(t)
	if strings.Contains(baseErr, "warning") {
		t.Fatalf("the audit without --rdns warns: %s", baseErr)
	}
	baseSpoofed := spoofedRows(base)
	if len(baseSpoofed) == 0 || len(baseBlock) == 0 {
		t.Fatalf("the sample has no spoofed row (%v) or no block list (%v)", baseSpoofed, baseBlock)
	}
	for _, how := range []string{"nxdomain", "servfail", "refused", "silent"} {
		t.Run(how, func(t *testing.T) {
			server, queries := brokenDNS(t, how)
			cache := filepath.Join(t.TempDir(), "rdns.jsonl")
			s, block, stderr := auditOut(t, "--rdns", "--rdns-server", server, "--rdns-timeout", "200ms", "--rdns-cache", cache)
			if got := spoofedRows(s); !slices.Equal(got, baseSpoofed) {
				t.Errorf("spoofed rows %v, want those of the audit without --rdns %v", got, baseSpoofed)
			}
			if !slices.Equal(block, baseBlock) {
				t.Errorf("block list %v, want that of the audit without --rdns %v", block, baseBlock)
			}
			if n := strings.Count(stderr, "warning:"); n != 1 || !strings.Contains(stderr, "reverse DNS: the DNS server "+server+" failed its check") {
				t.Errorf("stderr has %d warnings, want one about the resolver:\n%s", n, stderr)
			}
			rd := s["verification"].(map[string]any)["rdns"].(map[string]any)
			res, _ := rd["resolver"].(map[string]any)
			if res["status"] != "failing" || !strings.Contains(res["reason"].(string), "for all 4 addresses whose names are known") {
				t.Errorf("rdns.resolver = %v, want failing with a reason", rd["resolver"])
			}
			if rd["queried"] != 0.0 || rd["changed_identities"] != 0.0 || rd["not_asked"] != 12.0 {
				t.Errorf("rdns = %v: the failing resolver was asked about the addresses, or changed identities", rd)
			}
			// The check itself: a handful of queries (PTR of each probe).
			if n := queries.Load(); n == 0 || n > 8 {
				t.Errorf("%d queries, want the few of the check", n)
			}
			if b, err := os.ReadFile(cache); err == nil && len(strings.TrimSpace(string(b))) > 0 {
				t.Errorf("the cache holds answers of the failing resolver:\n%s", b)
			}
			s, block, stderr = auditOut(t, "--rdns-cache", cache)
			if got := spoofedRows(s); !slices.Equal(got, baseSpoofed) || !slices.Equal(block, baseBlock) || strings.Contains(stderr, "warning") {
				t.Errorf("with the cache alone: spoofed %v, block list %v, stderr %q", got, block, stderr)
			}
		})
	}
}

// TestAuditRDNSServerFlag: a --rdns-server that is not a server address,
// or a --rdns-budget that is not positive, is a usage error naming the
// flag, before anything is read.
func TestAuditRDNSServerFlag(t *testing.T) {
	for _, bad := range []string{"0s", "-1m"} {
		code, out, stderr := runCLI(t, "", "audit", "--rdns", "--rdns-budget", bad, "--robots", sampleRobots, sampleLog)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--rdns-budget") {
			t.Errorf("--rdns-budget %q: exit %d, stdout %q, stderr %q", bad, code, out, stderr)
		}
	}
	for _, bad := range []string{"nonsense server", "127.0.0.1:99999", "udp://8.8.8.8", "1.2.3", "127.0.0.1:"} {
		code, out, stderr := runCLI(t, "", "audit", "--rdns", "--rdns-server", bad, "--robots", sampleRobots, sampleLog)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "--rdns-server") {
			t.Errorf("--rdns-server %q: exit %d, stdout %q, stderr %q", bad, code, out, stderr)
		}
	}
}
