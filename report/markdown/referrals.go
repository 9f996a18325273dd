package markdown

import "github.com/crawlaudit/crawlaudit/report"

// referrals writes the section on crawl-to-refer: per operator and host,
// its verified crawl requests against the visitors its products sent.
func (m *writer) referrals(s *report.Summary) {
	m.p("## Referrals")
	m.p("")
	switch {
	case s.Input.NoReferer:
		m.p("Referrals: %s.", report.NoRefererNote)
		m.p("")
		return
	case len(s.Referrals) == 0:
		m.p("No request of an operator whose products crawlaudit knows, and no visitor sent by one.")
		m.p("")
		return
	}
	m.p("Per operator and host, as Cloudflare's crawl-to-refer ratio counts them: *crawls* are the requests of the operator's crawlers verified as its own (robots.txt and user-triggered fetches included), *referrals* the visits of people who came from one of its products (the Referer is the product's site, or the page they landed on carries its `utm_source`). An operator that sent nobody has no ratio. Only operators whose products crawlaudit knows are listed.")
	m.p("")
	var rows [][]string
	for _, r := range s.Referrals {
		rows = append(rows, []string{Text(r.Operator), Name(host(r.Host)), num(r.Crawls), num(r.Referrals), report.RatioText(r)})
	}
	m.table([]string{"operator", "host", "crawls", "referrals", "crawls per referral"}, []bool{false, false, true, true, true}, rows)
}
