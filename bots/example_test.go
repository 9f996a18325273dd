package bots_test

import (
	"fmt"

	"github.com/crawlaudit/crawlaudit/bots"
)

func ExampleIdentify() {
	for _, ua := range []string{
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)",
		"Googlebot-Image/1.0",
		"curl/8.5.0",
		"Mozilla/5.0 (compatible; NewCrawler/2.3; +https://newcrawler.example/about)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
		"-",
	} {
		b := bots.Identify(ua)
		fmt.Printf("%v %q %q %q known=%v\n", b.IsBot, b.Name, b.Operator, b.Purpose, b.Known)
	}
	// Output:
	// true "GPTBot" "OpenAI" "ai-training" known=true
	// true "Googlebot-Image" "Google" "search" known=true
	// true "curl" "" "script" known=true
	// true "NewCrawler" "" "other" known=false
	// false "" "" "" known=false
	// true "(no user agent)" "" "script" known=false
}
