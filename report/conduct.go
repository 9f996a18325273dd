package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// StatusMix counts a bot row's requests by the class of their answer. The
// classes part the statuses 200 to 599: 3xx holds no 304 (a revalidation
// answered "not modified", RFC 9110 §15.4.5), which is counted apart;
// 4xx holds 429. A request with no status logged, or one outside 200-599,
// is in none.
type StatusMix struct {
	S2xx int64 `json:"2xx"`
	S3xx int64 `json:"3xx"`
	S304 int64 `json:"304"`
	S4xx int64 `json:"4xx"`
	S5xx int64 `json:"5xx"`
}

// Conduct is how a bot row's crawler behaved toward the site, after the
// practices of draft-illyes-webbotauth-cbcp-01 §2: back off when the site
// fails, revalidate rather than refetch, use GET and HEAD, say who it is.
// None of it is a violation of robots.txt, nor a block reason.
type Conduct struct {
	// ErrorAnswers counts its requests answered 5xx or 429, the answers
	// that ask a crawler to slow down (RFC 9110 §15.6, RFC 6585 §4).
	ErrorAnswers int64 `json:"error_answers"`
	// NoBackoff counts its requests sent after such an answer and within
	// the wait its Retry-After asked for, or within 1 s where the log has
	// no Retry-After.
	NoBackoff int64 `json:"no_backoff"`
	// RepeatFetches counts its fetches of a URL after its first one;
	// NotModifiedShare is the share of them answered 304 (null when it
	// fetched no URL twice).
	RepeatFetches int64 `json:"repeat_fetches"`
	// NotModified counts the repeat fetches answered 304.
	NotModified      int64    `json:"not_modified"`
	NotModifiedShare *float64 `json:"not_modified_share"`
	// OtherMethods counts its requests with a method other than GET and
	// HEAD.
	OtherMethods int64 `json:"other_methods"`
	// RefetchHoursMedian is the median time between two fetches of the
	// same URL, in hours; null when it fetched no URL twice.
	RefetchHoursMedian *float64 `json:"refetch_hours_median"`
	// Contact tells that one of its User-Agents carries a URL or an
	// e-mail address.
	Contact bool `json:"contact"`
	// PublishesRanges tells that its operator publishes the address
	// ranges it crawls from (one of the range lists of the verification).
	PublishesRanges bool `json:"publishes_ranges"`
	// Signs tells that some of its requests carried a valid Web Bot Auth
	// signature; nil (left out) when the log records no signature header
	// at all, which cannot show whether a crawler signs (SetSigns).
	Signs *bool `json:"signs,omitempty"`
}

// SetShare sets NotModifiedShare from NotModified and RepeatFetches, to
// three decimals.
func (c *Conduct) SetShare() {
	c.NotModifiedShare = nil
	if c.RepeatFetches > 0 {
		v := math.Round(float64(c.NotModified)/float64(c.RepeatFetches)*1000) / 1000
		c.NotModifiedShare = &v
	}
}

// Fold adds the counts of o, for a row that sums several bots: the median
// of the sum is not known, so it is left out.
func (c *Conduct) Fold(o *Conduct) {
	c.ErrorAnswers += o.ErrorAnswers
	c.NoBackoff += o.NoBackoff
	c.RepeatFetches += o.RepeatFetches
	c.NotModified += o.NotModified
	c.OtherMethods += o.OtherMethods
	c.Contact = c.Contact || o.Contact
	if o.Signs != nil {
		// The folded row signs if any of its bots does.
		v := *o.Signs || (c.Signs != nil && *c.Signs)
		c.Signs = &v
	}
	c.RefetchHoursMedian = nil
	c.SetShare()
}

// SetSigns fills Conduct.Signs of every bot row of s from its Signed
// count when the log records signatures, that is when some request
// carried a Signature or Signature-Input header whatever its outcome
// (s.Signatures, which counts every such request, is not empty). Without
// any, Signs stays left out: a log that does not record the headers
// cannot show that a crawler does not sign.
func (s *Summary) SetSigns() {
	recorded := len(s.Signatures) > 0
	for i := range s.Bots {
		c := &s.Bots[i].Conduct
		c.Signs = nil
		if recorded {
			v := s.Bots[i].Signed > 0
			c.Signs = &v
		}
	}
}

// Fold adds the counts of o.
func (m *StatusMix) Fold(o StatusMix) {
	m.S2xx += o.S2xx
	m.S3xx += o.S3xx
	m.S304 += o.S304
	m.S4xx += o.S4xx
	m.S5xx += o.S5xx
}

// HumanBytes writes a byte count in binary units, as a person reads a
// bandwidth figure: "512 B", "1.5 KiB", "12.3 MiB", "4.0 GiB".
func HumanBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	for _, unit := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= 1024
		if v < 1024 || unit == "PiB" {
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		}
	}
	return "" // not reached
}

// ConductRows returns at most n bot rows of s for the reports' conduct
// section, those that most need a look first: most requests sent without
// backing off, then most error answers, then most bytes; ties by the
// summary's order. Folded rows ("(N other bots)") are left out.
func ConductRows(s *Summary, n int) []BotRow {
	rows := make([]BotRow, 0, len(s.Bots))
	for _, r := range s.Bots {
		if r.Requests > 0 && !strings.HasPrefix(r.Bot, "(") {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b BotRow) int {
		return cmp.Or(cmp.Compare(b.Conduct.NoBackoff, a.Conduct.NoBackoff),
			cmp.Compare(b.Conduct.ErrorAnswers, a.Conduct.ErrorAnswers), cmp.Compare(b.Bytes, a.Bytes))
	})
	return rows[:min(len(rows), n)]
}

// Share writes a share in [0, 1] as a percentage, or "–" for none.
func Share(p *float64) string {
	if p == nil {
		return "–"
	}
	return strconv.FormatFloat(*p*100, 'f', 0, 64) + "%"
}

// Interval writes a time between fetches given in hours: in seconds under
// a minute, minutes under an hour, else hours; "–" for none.
func Interval(p *float64) string {
	if p == nil {
		return "–"
	}
	switch {
	case *p*3600 < 60:
		return strconv.FormatFloat(*p*3600, 'f', 0, 64) + " s"
	case *p < 1:
		return strconv.FormatFloat(*p*60, 'f', 0, 64) + " min"
	}
	return strconv.FormatFloat(*p, 'f', 1, 64) + " h"
}

// YesNoUnknown writes a flag that may be unknown as "yes", "no" or "–"
// (nil).
func YesNoUnknown(b *bool) string {
	if b == nil {
		return "–"
	}
	return YesNo(*b)
}

// YesNo writes a flag as "yes" or "no".
func YesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
