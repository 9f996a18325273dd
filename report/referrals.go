package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Referral is one entry of summary.json's "referrals": on one host, the
// requests of an operator's crawlers that were verified as the operator's,
// and the people its products sent (human requests whose Referer host, or
// utm_source, names one of them: bots.Referrers).
type Referral struct {
	Operator string `json:"operator"`
	Host     string `json:"host"`
	// Crawls are the verified requests of the operator's bots on Host,
	// robots.txt fetches and user-triggered fetches included.
	Crawls int64 `json:"crawls"`
	// Referrals are the human requests its products referred.
	Referrals int64 `json:"referrals"`
	// Ratio is crawls per referral, as Cloudflare's crawl-to-refer ratio
	// reads: 500 means 500 requests for every visitor sent. It is nil
	// (null) when there was no referral, where no ratio exists.
	Ratio *float64 `json:"ratio"`
}

// NoRefererNote is what the reports say when the log has no Referer.
const NoRefererNote = "the log has no Referer field: the visitors each operator's products sent cannot be counted"

// RatioText is a referral's ratio as the reports show it: crawls per
// referral with one decimal below 100 ("8.2"), whole above ("1,250"), or
// "none sent" when the operator sent nobody.
func RatioText(r Referral) string {
	switch {
	case r.Ratio == nil:
		return "none sent"
	case *r.Ratio >= 100:
		return Thousands(int64(math.Round(*r.Ratio)))
	}
	return strconv.FormatFloat(*r.Ratio, 'f', 1, 64)
}

// maxReferralsLine is how many operators the terminal's referrals line
// names.
const maxReferralsLine = 6

// referralsLine is the terminal's sentence on referrals: crawls per
// referral of the operators with most crawls, their hosts added up; ""
// when there is nothing to say.
func referralsLine(s *Summary) string {
	if s.Input.NoReferer {
		return "Referrals: " + NoRefererNote + "."
	}
	if len(s.Referrals) == 0 {
		return ""
	}
	var ops []Referral
	for _, r := range s.Referrals {
		i := slices.IndexFunc(ops, func(o Referral) bool { return o.Operator == r.Operator })
		if i < 0 {
			ops = append(ops, Referral{Operator: r.Operator})
			i = len(ops) - 1
		}
		ops[i].Crawls += r.Crawls
		ops[i].Referrals += r.Referrals
	}
	slices.SortStableFunc(ops, func(a, b Referral) int {
		return cmp.Or(cmp.Compare(b.Crawls, a.Crawls), cmp.Compare(b.Referrals, a.Referrals))
	})
	var parts []string
	for i := range ops {
		if len(parts) == maxReferralsLine {
			parts = append(parts, fmt.Sprintf("%d more", len(ops)-maxReferralsLine))
			break
		}
		if ops[i].Referrals > 0 {
			x := math.Round(float64(ops[i].Crawls)/float64(ops[i].Referrals)*100) / 100
			ops[i].Ratio = &x
		}
		parts = append(parts, Printable(ops[i].Operator, 0)+" "+RatioText(ops[i]))
	}
	return "Referrals, crawls per visitor sent by the operator's products: " + strings.Join(parts, ", ") + " (report.html and summary.json: referrals)."
}
