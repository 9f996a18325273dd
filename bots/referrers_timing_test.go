package bots

import "testing"

// BenchmarkLookupReferer: the lookup per human request with a Referer, a
// mix of AI assistants, search engines and other sites.
func BenchmarkLookupReferer(b *testing.B) {
	refs := []string{
		"https://www.google.com/", "https://chatgpt.com/", "https://www.example.org/blog/post?id=7",
		"https://www.bing.com/search?q=robots", "https://news.ycombinator.com/item?id=1", "-",
		"https://www.google.co.uk/", "https://www.perplexity.ai/search/x", "https://t.co/abc",
	}
	b.ReportAllocs()
	found := 0
	for i := 0; b.Loop(); i++ {
		if _, ok := LookupReferer(refs[i%len(refs)]); ok {
			found++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}
