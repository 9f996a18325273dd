package bots

import (
	"strings"
	"testing"
)

// The benchmarks call the uncached path (identify), as the audit does for
// each distinct User-Agent it has not seen.

var benchSets = map[string][]string{
	"table": {
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"python-requests/2.31.0",
	},
	"browser": {
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0",
		"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36",
	},
	"generic": {
		"Mozilla/5.0 (compatible; trovitBot 1.0; +http://www.trovit.com/bot.html)",
		"Mozilla/5.0 (compatible; NewCrawler/2.3; +https://newcrawler.example/about)",
	},
	"uap": {
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22F76 [FBAN/FBIOS;FBAV/520.0.0.38.101;FBBV/735000000;FBDV/iPhone16,2;FBMD/iPhone;FBSN/iOS;FBSV/18.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]",
		"MyApp/1.0 CFNetwork/1408.0.4 Darwin/22.5.0",
		"Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
	},
}

func benchIdentify(b *testing.B, uas []string) {
	id := NewIdentifier()
	id.identify(uas[0]) // compile uap's regexps outside the timing
	var n int64
	for _, ua := range uas {
		n += int64(len(ua))
	}
	b.SetBytes(n / int64(len(uas)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		id.identify(uas[i%len(uas)])
	}
}

// BenchmarkIdentify measures each path, and a mix of them in which about one
// header in ten goes to uap-go, as in the real logs (TestRealLogs: 68 of the
// 559 distinct User-Agents of elastic-apache-semicomplete-2015, 12 of 215 in
// almhuette-raith-apache-2019).
func BenchmarkIdentify(b *testing.B) {
	for _, name := range []string{"table", "browser", "generic", "uap"} {
		b.Run(name, func(b *testing.B) { benchIdentify(b, benchSets[name]) })
	}
	b.Run("mix", func(b *testing.B) {
		var mix []string
		for _, name := range []string{"browser", "browser", "browser", "browser", "table", "table", "table", "generic", "uap"} {
			mix = append(mix, benchSets[name]...)
		}
		benchIdentify(b, mix)
	})
	b.Run("hostile-100KB", func(b *testing.B) {
		benchIdentify(b, []string{
			strings.Repeat("Mozilla/5.0 (a; b; c) ", 100<<10/22),
			strings.Repeat("Googlebot-Image-", 100<<10/16),
			strings.Repeat("(", 100<<10),
			"Mozilla/5.0 " + strings.Repeat("x", 100<<10),
		})
	})
	b.Run("cached", func(b *testing.B) {
		id := NewIdentifier()
		ua := benchSets["uap"][0]
		id.Identify(ua)
		b.ReportAllocs()
		for b.Loop() {
			id.Identify(ua)
		}
	})
}

// BenchmarkUAP measures uap-go alone (user-agent and device families), the
// cost Identify avoids for table hits and plain browsers.
func BenchmarkUAP(b *testing.B) {
	id := NewIdentifier()
	id.uapParse("warm up")
	uas := append(append([]string{}, benchSets["browser"]...), benchSets["table"]...)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id.uap.ParseUserAgent(uas[i%len(uas)]) // uap's own cache holds one entry
		id.uap.ParseDevice(uas[i%len(uas)])
	}
}
