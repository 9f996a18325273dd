package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

// TestTableCreditsOnlyATrustedResolver: the footer's identity line names
// reverse DNS as a source only when the resolver passed its check; a
// failing one settled nothing, and the line says that instead.
func TestTableCreditsOnlyATrustedResolver(t *testing.T) {
	for _, tc := range []struct {
		name     string
		dns      any
		want     string
		wantNot  string
		wantNone bool
	}{
		{name: "no reverse DNS", dns: nil, wantNone: true},
		{name: "resolver ok", dns: audit.DNSStats{Live: true, Resolver: &rdns.Health{Status: rdns.HealthOK, Probes: 4, Confirmed: 4}},
			want: "(operators' published ranges and reverse DNS)", wantNot: "failed its check"},
		{name: "cache only", dns: audit.DNSStats{Cache: "rdns.jsonl"}, want: "and reverse DNS)"},
		{name: "resolver failing", dns: audit.DNSStats{Live: true, Resolver: &rdns.Health{Status: rdns.HealthFailing, Reason: "NXDOMAIN for all 4", Probes: 4}},
			want: "reverse DNS unused: the resolver failed its check", wantNot: "ranges and reverse DNS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &report.Summary{
				Bots:         []report.BotRow{{Bot: "YandexBot", Host: "h", Identity: report.IdentityUnverified, Requests: 1, IPs: 1}},
				Verification: &report.Verification{Identities: map[string]int64{report.IdentityUnverified: 1}, DNS: tc.dns},
			}
			var b bytes.Buffer
			if err := report.WriteTable(&b, s, report.TableOptions{Terminal: true, Width: 200}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if tc.wantNone && strings.Contains(out, "reverse DNS") {
				t.Errorf("footer names reverse DNS without it:\n%s", out)
			}
			if tc.want != "" && !strings.Contains(out, tc.want) {
				t.Errorf("footer lacks %q:\n%s", tc.want, out)
			}
			if tc.wantNot != "" && strings.Contains(out, tc.wantNot) {
				t.Errorf("footer has %q:\n%s", tc.wantNot, out)
			}
		})
	}
}
