package report

import "time"

// PrefVersion is one robots.txt version in the section preferences of the
// reports: the AI-use preferences it declares and, per bot row of the
// crawlers a preference can refuse, the requests it judged and how many
// were exposed. The versions of a host in order of Start show the
// exposure before and after a change.
type PrefVersion struct {
	Host  string
	Name  string
	Start time.Time // zero: in effect for all time
	// Statements are the version's Content-Usage and Content-Signal
	// lines (summary.json's preferences); none when it declares nothing.
	Statements []PreferenceStatement
	// Rows are the bot rows it judged, most exposed first; RowsTotal
	// counts them all.
	Rows      []PrefExposure
	RowsTotal int
}

// PrefExposure is the exposure of one bot row under one version.
type PrefExposure struct {
	Bot, Purpose, Identity string
	Requests               int64 // requests judged by the version, /robots.txt fetches aside
	Exposed                int64 // of them pref_exposed
}

// Refusing names the category whose n refuses a crawler of purpose
// ("train-ai"), or "" when none can.
func Refusing(purpose string) string {
	switch purpose {
	case "ai-training":
		return "train-ai"
	case "ai-search", "ai-assistant":
		return "ai-use"
	case "search":
		return "search"
	}
	return ""
}

// Refusing is Refusing of the row's purpose.
func (e PrefExposure) Refusing() string { return Refusing(e.Purpose) }
