package report

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
