package audit

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/report"
)

// Crawl-to-refer: the human filters count, per host, the people whose
// request names an operator's product (bots.Referrers), before they drop
// the row; the summary sets them against the operator's verified requests.

// referralOps are the operators of the referrer table, in its order, and
// referralOpIndex their index; utmIndex maps a lower-case utm_source value
// to its operator's index.
var referralOps, referralOpIndex, utmIndex = referralTables()

func referralTables() ([]string, map[string]int, map[string]int) {
	var ops []string
	index := map[string]int{}
	utm := map[string]int{}
	for _, e := range bots.Referrers() {
		i, ok := index[e.Operator]
		if !ok {
			i = len(ops)
			index[e.Operator] = i
			ops = append(ops, e.Operator)
		}
		if e.UTMSource != "" {
			utm[e.UTMSource] = i
		}
	}
	return ops, index, utm
}

// maxReferrerCache bounds the Referer hosts a filter remembers.
const maxReferrerCache = 1 << 12

// referralCounter is the part of a human filter that counts referrals.
type referralCounter struct {
	// refererSeen: a request of the period carried a Referer.
	refererSeen bool
	// counts are the referrals per logged host, per operator index.
	counts map[string][]int64
	// hostOp caches the answer per Referer host: operator index + 1, 0
	// for none. lastRefHost and lastOp are the last answer: people browse
	// a site page after page, so most Referers name the site itself.
	hostOp      map[string]int
	lastRefHost []byte
	lastOp      int
	// prevRefHost and prevOp are the answer before: a visit from a search
	// engine's results interrupts the run of the site's own pages.
	prevRefHost []byte
	prevOp      int
}

// count counts the human request r if it was referred by an operator's
// product: by its Referer's host, else by the utm_source of its target,
// else by that of a Referer from another host. It allocates only for a
// host or Referer host it has not seen.
func (c *referralCounter) count(r *logfmt.Row) {
	op := -1
	if len(r.Referer) > 0 {
		op = c.refererOp(r)
	}
	if op < 0 {
		op = utmOp(r.Target)
	}
	if op < 0 && len(r.Referer) > 0 && len(r.Host) > 0 {
		// A Referer of the site itself is a visitor going from page to
		// page: its utm_source came with the landing page, counted there.
		// Without a logged host that cannot be told, so it is not read.
		if h := refererHost(r.Referer); len(h) > 0 && !sameHost(h, r.Host) {
			op = utmOp(r.Referer)
		}
	}
	if op < 0 {
		return
	}
	if c.counts == nil {
		c.counts = map[string][]int64{}
	}
	n, ok := c.counts[string(r.Host)]
	if !ok {
		n = make([]int64, len(referralOps))
		c.counts[string(r.Host)] = n
	}
	n[op]++
}

// refererOp returns the operator index of the host of r's Referer, -1 for
// none.
func (c *referralCounter) refererOp(r *logfmt.Row) int {
	// Most Referers name the host of the one before (a site's own pages):
	// compare it in place before cutting the host out.
	if c.lastRefHost != nil && hasHost(r.Referer, c.lastRefHost) {
		return c.lastOp - 1
	}
	if c.prevRefHost != nil && hasHost(r.Referer, c.prevRefHost) {
		c.lastRefHost, c.prevRefHost = c.prevRefHost, c.lastRefHost
		c.lastOp, c.prevOp = c.prevOp, c.lastOp
		return c.lastOp - 1
	}
	host := refererHost(r.Referer)
	if len(host) == 0 {
		return -1
	}
	v, ok := c.hostOp[string(host)]
	if !ok {
		if ref, found := bots.LookupReferrerHost(string(host)); found {
			v = referralOpIndex[ref.Operator] + 1
		}
		if c.hostOp == nil {
			c.hostOp = map[string]int{}
		}
		if len(c.hostOp) < maxReferrerCache {
			c.hostOp[string(host)] = v
		}
	}
	c.lastRefHost, c.prevRefHost = append(c.prevRefHost[:0], host...), c.lastRefHost
	c.lastOp, c.prevOp = v, c.lastOp
	return v - 1
}

// hasHost reports whether host is the host refererHost finds in ref, for a
// host without '@', found without scanning ref: ref is "https://" or
// "http://", the host, then the end, '/', '?' or '#'.
func hasHost(ref, host []byte) bool {
	var rest []byte
	switch {
	case len(ref) > 8 && string(ref[:8]) == "https://":
		rest = ref[8:]
	case len(ref) > 7 && string(ref[:7]) == "http://":
		rest = ref[7:]
	default:
		return false
	}
	if len(rest) < len(host) || string(rest[:len(host)]) != string(host) {
		return false
	}
	if len(rest) == len(host) {
		return true
	}
	switch rest[len(host)] {
	case '/', '?', '#':
		return true
	}
	return false
}

// sameHost reports whether the hosts a and b are the same, case and port
// ignored.
func sameHost(a, b []byte) bool {
	return bytes.EqualFold(stripPort(a), stripPort(b))
}

// stripPort returns h without a final ":port" (not inside an IPv6
// literal's brackets).
func stripPort(h []byte) []byte {
	if i := bytes.LastIndexByte(h, ':'); i >= 0 && bytes.IndexByte(h[i:], ']') < 0 {
		return h[:i]
	}
	return h
}

// refererHost is bots.RefererHost on bytes: the host of an absolute URL,
// nil when there is none.
func refererHost(ref []byte) []byte {
	i := bytes.Index(ref, []byte("://"))
	if i <= 0 {
		return nil
	}
	rest := ref[i+3:]
	for j, c := range rest {
		if c == '/' || c == '?' || c == '#' {
			rest = rest[:j]
			break
		}
	}
	if at := bytes.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return rest
}

// utmOp returns the operator index of the first utm_source parameter in
// the query of u (a request target or a URL), -1 when there is none or it
// names no operator's product (bots.LookupUTMSource).
func utmOp(u []byte) int {
	q := bytes.IndexByte(u, '?')
	if q < 0 {
		return -1
	}
	query := u[q+1:]
	// One search for the name rather than one per parameter: the first
	// match that starts a parameter is the first utm_source.
	for from := 0; ; {
		i := bytes.Index(query[from:], []byte("utm_source="))
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || query[i-1] == '&' {
			if bytes.IndexByte(query[:i], '#') >= 0 {
				return -1 // in the fragment
			}
			v := query[i+len("utm_source="):]
			if end := bytes.IndexAny(v, "&#"); end >= 0 {
				v = v[:end]
			}
			return utmValueOp(v)
		}
		from = i + 1
	}
}

// utmValueOp looks the utm_source value v up, case ignored.
func utmValueOp(v []byte) int {
	var buf [64]byte
	if len(v) == 0 || len(v) > len(buf) {
		return -1
	}
	for i, c := range v {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	if i, ok := utmIndex[string(buf[:len(v)])]; ok {
		return i
	}
	return -1
}

// referralKey is an operator's referrals on one judged host.
type referralKey struct{ host, operator string }

// addReferrals adds the referrals a filter counted to j, by the judged
// name of each logged host.
func (c *referralCounter) addTo(j *judge) {
	j.refererSeen = j.refererSeen || c.refererSeen
	for host, n := range c.counts {
		name := j.hosts[j.hostState(string(ingest.RepairUTF8([]byte(host))))].name
		for op, k := range n {
			if k == 0 {
				continue
			}
			if j.referred == nil {
				j.referred = map[referralKey]int64{}
			}
			j.referred[referralKey{name, referralOps[op]}] += k
		}
	}
	c.counts = nil
}

// ReferralCount is the count of one operator's referrals on one host, as
// a partial audit hands it on (Partial.Referred).
type ReferralCount struct {
	Operator string `json:"operator"`
	Host     string `json:"host"`
	N        int64  `json:"n"`
}

// referralCounts returns j's referrals, sorted by host and operator.
func (j *judge) referralCounts() []ReferralCount {
	var out []ReferralCount
	for k, n := range j.referred {
		out = append(out, ReferralCount{Operator: k.operator, Host: k.host, N: n})
	}
	slices.SortFunc(out, func(a, b ReferralCount) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), strings.Compare(a.Operator, b.Operator))
	})
	return out
}

// Referrals returns summary.json's "referrals": for every operator of the
// referrer table (bots.Referrers) and host with verified requests of the
// operator's bots (in rows) or referrals (in referred), both counts and
// crawls per referral. Operators with no product in the table are left
// out: the visitors they sent cannot be told, which is not none. The
// order: by host, then the most crawls first, then operator.
func Referrals(rows []report.BotRow, referred []ReferralCount) []report.Referral {
	m := map[referralKey]*report.Referral{}
	get := func(host, op string) *report.Referral {
		k := referralKey{host, op}
		r := m[k]
		if r == nil {
			r = &report.Referral{Operator: op, Host: host}
			m[k] = r
		}
		return r
	}
	for _, r := range rows {
		if r.Identity != report.IdentityVerified || r.Operator == "" {
			continue
		}
		if _, ok := referralOpIndex[r.Operator]; !ok {
			continue
		}
		get(r.Host, r.Operator).Crawls += r.Requests
	}
	for _, c := range referred {
		get(c.Host, c.Operator).Referrals += c.N
	}
	out := make([]report.Referral, 0, len(m))
	for _, r := range m {
		if r.Referrals > 0 {
			ratio := math.Round(float64(r.Crawls)/float64(r.Referrals)*100) / 100
			r.Ratio = &ratio
		}
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b report.Referral) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), cmp.Compare(b.Crawls, a.Crawls),
			cmp.Compare(b.Referrals, a.Referrals), strings.Compare(a.Operator, b.Operator))
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// ReferralSummary sets summary.json's input "no_referer" and
// "referrals" of s, whose bot rows are final, from the referral counts
// (Run's, or the sum of an audit's parts in the Beam pipeline). There are
// no referrals when no request of the period carried a Referer
// (refererSeen false): the log then most likely does not record it.
func ReferralSummary(s *report.Summary, refererSeen bool, referred []ReferralCount) {
	s.Input.NoReferer, s.Referrals = false, nil
	if !refererSeen {
		s.Input.NoReferer = s.Input.HumanRequests+s.Input.BotRequests > 0
		return
	}
	s.Referrals = Referrals(s.Bots, referred)
}
