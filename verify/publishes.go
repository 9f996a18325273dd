package verify

// PublishesRanges reports whether bot's operator publishes the address
// ranges it crawls from: an authoritative source that covers bot holds at
// least one list (draft-illyes-webbotauth-cbcp-01 §2.5 asks crawlers to).
// Reverse DNS domains alone do not count.
func (r *Ranges) PublishesRanges(bot string) bool {
	for _, s := range r.plan(bot).auth {
		if len(s.Versions) > 0 {
			return true
		}
	}
	return false
}
