package report

// SignedShare is one bot row's signed requests, for the reports' table of
// signed requests.
type SignedShare struct {
	Label, Host, Identity string
	Signed, Requests      int64
	// Percent is Signed of Requests, rounded down to a whole percent, but
	// never 0 for a row with a signed request.
	Percent int64
}

// SignedShares returns the bot rows with at least one validly signed
// request, in the summary's order.
func SignedShares(s *Summary) []SignedShare {
	var out []SignedShare
	for i := range s.Bots {
		r := &s.Bots[i]
		if r.Signed == 0 || r.Requests == 0 {
			continue
		}
		p := r.Signed * 100 / r.Requests
		if p == 0 {
			p = 1
		}
		out = append(out, SignedShare{Label: r.Label(), Host: r.Host, Identity: r.Identity, Signed: r.Signed, Requests: r.Requests, Percent: p})
	}
	return out
}

// SignatureMeaning says what an outcome of summary.json's "signatures"
// means for the requests, in the reports' words.
func SignatureMeaning(status string) string {
	switch status {
	case "valid":
		return "the signer made them: verified when it runs the crawler named, spoofed otherwise; a browser's header becomes the signer's agent"
	case "expired":
		return "stale or premature signature: says nothing, addresses decide"
	case "invalid":
		return "not what the signer signed: spoofed"
	case "unknown_key":
		return "key not in the signer's directory: update the keys (crawlaudit keys update, --keys DIR)"
	case "replayed":
		return "the signature was sent before from another address: spoofed"
	case "unverifiable":
		return "the log lacks what checking needs: says nothing, addresses decide"
	}
	return ""
}
