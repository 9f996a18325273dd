package loggen

// Behavior is how an actor of the generated traffic treats robots.txt.
type Behavior uint8

// Behaviors. Every crawler except the spoofed ones fetches /robots.txt
// on its first request and again on the first request at least 16–22 hours
// after the previous fetch (sooner after an error answer: see Outage and
// the package's decisions); polite ones obey the copy they fetched last.
const (
	Browser             Behavior = iota // a person with a browser: never a bot
	Polite                              // obeys Disallow, Crawl-delay, Request-rate and Visit-time of its group
	IgnoresDisallow                     // fetches robots.txt, then requests disallowed paths anyway
	BreachesCrawlDelay                  // obeys Disallow, comes in bursts 1–3 s apart despite Crawl-delay
	BreachesRequestRate                 // obeys Disallow, sends bursts of 5–8 requests within 30 s
	BreachesVisitTime                   // obeys Disallow, crawls around the clock despite Visit-time
	Spoofed                             // a crawler's User-Agent from an address outside its ranges; never fetches robots.txt
	Script                              // an HTTP library or command-line tool; does not read robots.txt (Wget does)
)

var behaviorNames = [...]string{"browser", "polite", "ignores-disallow", "breaches-crawl-delay",
	"breaches-request-rate", "breaches-visit-time", "spoofed", "script"}

// String returns the behaviour's name ("polite").
func (b Behavior) String() string {
	if int(b) < len(behaviorNames) {
		return behaviorNames[b]
	}
	return "unknown"
}

// botProfile describes one crawler or script of the generated traffic.
type botProfile struct {
	actor    string   // name of the actor in Request.Actor
	bot      string   // product name the audit should report: a token of the User-Agent read as a product name
	operator string   // who runs it (package bots' name); its crawlers share one robots.txt cache; "": none
	behavior Behavior //
	weight   float64  // share of all lines, in percent
	uas      []string // User-Agent values, the first most frequent
	ips      []string // addresses it comes from
	// Request timing: requests come in groups of burstMin..burstMax, gapMin..
	// gapMax seconds apart inside a group; the groups are spread over the
	// period. minGap, when not 0, is kept between any two requests.
	burstMin, burstMax int
	gapMin, gapMax     int
	minGap             int
	interest           []weighted // what it requests, by weight
}

// op returns the operator whose crawlers share the profile's robots.txt
// cache and what /robots.txt answered them: its operator, else the bot
// (scripts), as the audit keys availability: per host and operator, since
// an operator's crawlers share one robots.txt cache.
func (p *botProfile) op() string {
	if p.operator != "" {
		return p.operator
	}
	return p.bot
}

// Real User-Agent strings, as published by the operators or seen in logs.
const (
	uaGooglebotDesktop    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/141.0.7390.122 Safari/537.36"
	uaGooglebotClassic    = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGooglebotSmartphone = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.122 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

func bots() []botProfile {
	pages := []weighted{{secHome, 2}, {secProduct, 30}, {secCategory, 12}, {secBlog, 15}, {secDocs, 8},
		{secWiki, 8}, {secUebersicht, 2}, {secPrivate, 2}, {secArchive, 5}, {secBeta, 2}, {secFeed, 2},
		{secSitemap, 1}, {secSearch, 3}, {secAccount, 1}, {secPrint, 1}, {secPDF, 2}}
	seo := []weighted{{secHome, 2}, {secProduct, 25}, {secCategory, 20}, {secBlog, 15}, {secDocs, 5},
		{secWiki, 5}, {secArchive, 8}, {secBeta, 2}, {secSearch, 3}, {secPrint, 3}, {secPDF, 3}, {secSitemap, 2}}
	ai := []weighted{{secHome, 1}, {secProduct, 20}, {secBlog, 30}, {secDocs, 20}, {secWiki, 10},
		{secArchive, 8}, {secPrivate, 3}, {secPDF, 4}, {secFeed, 2}, {secAccount, 1}}
	return []botProfile{
		{actor: "Googlebot smartphone", bot: "Googlebot", operator: "Google", behavior: Polite, weight: 8,
			uas:      []string{uaGooglebotSmartphone},
			ips:      []string{"66.249.66.1", "66.249.66.33", "66.249.68.70", "66.249.79.135", "2001:4860:4801:2::5a"},
			burstMin: 1, burstMax: 20, gapMin: 1, gapMax: 40, interest: pages},
		{actor: "Googlebot desktop", bot: "Googlebot", operator: "Google", behavior: Polite, weight: 3,
			uas:      []string{uaGooglebotDesktop, uaGooglebotClassic},
			ips:      []string{"66.249.64.6", "66.249.64.170", "66.249.72.7", "2001:4860:4801:c::1f"},
			burstMin: 1, burstMax: 10, gapMin: 1, gapMax: 60, interest: pages},
		{actor: "Googlebot-Image", bot: "Googlebot-Image", operator: "Google", behavior: Polite, weight: 2,
			uas:      []string{"Googlebot-Image/1.0"},
			ips:      []string{"66.249.66.160", "66.249.66.161", "66.249.79.200"},
			burstMin: 1, burstMax: 12, gapMin: 1, gapMax: 20, interest: []weighted{{secImage, 9}, {secPrivateImage, 1}}},
		{actor: "Googlebot (spoofed)", bot: "Googlebot", behavior: Spoofed, weight: 0.4,
			uas:      []string{uaGooglebotClassic, uaGooglebotDesktop},
			ips:      []string{"45.148.10.62", "185.220.101.34", "2a0b:f4c2:2::1b"},
			burstMin: 3, burstMax: 25, gapMin: 0, gapMax: 2,
			interest: []weighted{{secJunk, 10}, {secAccount, 3}, {secSearch, 3}, {secProduct, 4}, {secPrivate, 2}}},
		// Impostors of other operators, from documentation addresses (RFC
		// 5737, RFC 3849), which no operator's list holds.
		{actor: "bingbot (spoofed)", bot: "bingbot", behavior: Spoofed, weight: 0.25,
			uas:      []string{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"},
			ips:      []string{"192.0.2.44", "192.0.2.45"},
			burstMin: 2, burstMax: 15, gapMin: 0, gapMax: 3,
			interest: []weighted{{secJunk, 6}, {secAccount, 3}, {secSearch, 4}, {secProduct, 4}}},
		{actor: "GPTBot (spoofed)", bot: "GPTBot", behavior: Spoofed, weight: 0.3,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"},
			ips:      []string{"192.0.2.91", "2001:db8:bad:1::91"},
			burstMin: 5, burstMax: 30, gapMin: 0, gapMax: 2,
			interest: []weighted{{secBlog, 6}, {secDocs, 4}, {secPrivate, 3}, {secAccount, 2}}},
		{actor: "ClaudeBot (spoofed)", bot: "ClaudeBot", behavior: Spoofed, weight: 0.2,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"},
			ips:      []string{"192.0.2.150"},
			burstMin: 3, burstMax: 20, gapMin: 0, gapMax: 2,
			interest: []weighted{{secWiki, 5}, {secArchive, 3}, {secPrivate, 2}, {secSearch, 2}}},
		{actor: "bingbot", bot: "bingbot", operator: "Microsoft", behavior: Polite, weight: 5,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"},
			ips:      []string{"157.55.39.12", "157.55.39.200", "207.46.13.91", "40.77.167.44"},
			burstMin: 1, burstMax: 15, gapMin: 6, gapMax: 20, minGap: 6, interest: pages},
		{actor: "YandexBot", bot: "YandexBot", operator: "Yandex", behavior: Polite, weight: 1.5,
			uas:      []string{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"},
			ips:      []string{"5.255.253.104", "213.180.203.58", "95.108.213.40", "2a02:6b8:c0e:500:1:45:d181:d4e"},
			burstMin: 1, burstMax: 8, gapMin: 6, gapMax: 30, minGap: 6, interest: pages},
		{actor: "Baiduspider", bot: "Baiduspider", operator: "Baidu", behavior: Polite, weight: 1,
			uas:      []string{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"},
			ips:      []string{"116.179.32.21", "116.179.37.140", "220.181.108.99"},
			burstMin: 1, burstMax: 6, gapMin: 2, gapMax: 30, interest: pages},
		{actor: "Applebot", bot: "Applebot", operator: "Apple", behavior: Polite, weight: 1.5,
			uas:      []string{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"},
			ips:      []string{"17.241.219.47", "17.241.227.190", "17.22.237.12"},
			burstMin: 1, burstMax: 8, gapMin: 1, gapMax: 30, interest: pages},
		{actor: "AhrefsBot", bot: "AhrefsBot", operator: "Ahrefs", behavior: Polite, weight: 3,
			uas:      []string{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"},
			ips:      []string{"54.36.148.17", "54.36.149.80", "5.39.1.230", "202.8.41.75"},
			burstMin: 1, burstMax: 20, gapMin: 11, gapMax: 25, minGap: 11, interest: seo},
		{actor: "SemrushBot", bot: "SemrushBot", operator: "Semrush", behavior: Polite, weight: 2.5,
			uas:      []string{"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)"},
			ips:      []string{"185.191.171.5", "185.191.171.18", "85.208.96.200", "85.208.98.23"},
			burstMin: 1, burstMax: 15, gapMin: 11, gapMax: 40, minGap: 11, interest: seo},
		{actor: "MJ12bot", bot: "MJ12bot", operator: "Majestic", behavior: BreachesCrawlDelay, weight: 2,
			uas:      []string{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"},
			ips:      []string{"136.243.228.177", "144.76.71.176", "5.9.98.130"},
			burstMin: 5, burstMax: 15, gapMin: 1, gapMax: 3, interest: seo},
		{actor: "DotBot", bot: "DotBot", operator: "Moz", behavior: BreachesRequestRate, weight: 1.5,
			uas:      []string{"Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)"},
			ips:      []string{"216.244.66.194", "216.244.66.247"},
			burstMin: 5, burstMax: 8, gapMin: 2, gapMax: 4, interest: seo},
		{actor: "PetalBot", bot: "PetalBot", operator: "Huawei", behavior: BreachesVisitTime, weight: 1.5,
			uas:      []string{"Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)"},
			ips:      []string{"114.119.134.22", "114.119.147.88", "114.119.155.201"},
			burstMin: 1, burstMax: 4, gapMin: 20, gapMax: 90, interest: pages},
		{actor: "Amazonbot", bot: "Amazonbot", operator: "Amazon", behavior: Polite, weight: 2,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36"},
			ips:      []string{"184.73.35.182", "184.73.167.217", "3.224.220.101"},
			burstMin: 1, burstMax: 10, gapMin: 1, gapMax: 15, interest: ai},
		{actor: "meta-externalagent", bot: "meta-externalagent", operator: "Meta", behavior: Polite, weight: 2,
			uas:      []string{"meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"},
			ips:      []string{"57.141.0.14", "57.141.0.27", "2a03:2880:f800:1e::", "2a03:2880:f806:17::"},
			burstMin: 1, burstMax: 12, gapMin: 1, gapMax: 10, interest: ai},
		{actor: "GPTBot", bot: "GPTBot", operator: "OpenAI", behavior: Polite, weight: 3,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)"},
			ips:      []string{"74.7.227.189", "74.7.227.140", "20.171.207.52", "20.171.206.117"},
			burstMin: 2, burstMax: 30, gapMin: 0, gapMax: 5, interest: ai},
		{actor: "ClaudeBot", bot: "ClaudeBot", operator: "Anthropic", behavior: Polite, weight: 3,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"},
			ips:      []string{"216.73.216.29", "216.73.216.101", "216.73.217.6"},
			burstMin: 1, burstMax: 20, gapMin: 1, gapMax: 8, interest: ai},
		{actor: "CCBot", bot: "CCBot", operator: "Common Crawl Foundation", behavior: Polite, weight: 1.5,
			uas:      []string{"CCBot/2.0 (https://commoncrawl.org/faq/)"},
			ips:      []string{"18.97.9.170", "18.97.14.84", "2600:1f28:365:80b0:86c5:20a6:4c27:12af"},
			burstMin: 1, burstMax: 10, gapMin: 1, gapMax: 6, interest: ai},
		{actor: "PerplexityBot", bot: "PerplexityBot", operator: "Perplexity", behavior: Polite, weight: 1,
			uas:      []string{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"},
			ips:      []string{"18.97.21.1", "18.97.43.82", "107.20.236.150"},
			burstMin: 1, burstMax: 5, gapMin: 1, gapMax: 10, interest: ai},
		{actor: "Bytespider", bot: "Bytespider", operator: "ByteDance", behavior: IgnoresDisallow, weight: 3,
			uas:      []string{"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"},
			ips:      []string{"47.128.20.15", "47.128.55.209", "47.128.97.3", "110.249.202.140"},
			burstMin: 3, burstMax: 30, gapMin: 0, gapMax: 3, interest: ai},
		{actor: "curl", bot: "curl", behavior: Script, weight: 0.8,
			uas:      []string{"curl/8.5.0", "curl/7.81.0", "curl/8.14.1"},
			ips:      []string{"203.0.113.7", "198.51.100.23", "2001:db8:4006:812::200e"},
			burstMin: 1, burstMax: 3, gapMin: 0, gapMax: 5,
			interest: []weighted{{secHome, 5}, {secAPI, 4}, {secJunk, 2}, {secProduct, 2}, {secRawUTF8, 1}}},
		{actor: "python-requests", bot: "python-requests", behavior: Script, weight: 0.8,
			uas:      []string{"python-requests/2.32.3", "python-requests/2.31.0"},
			ips:      []string{"34.125.87.19", "167.99.212.40"},
			burstMin: 10, burstMax: 60, gapMin: 0, gapMax: 2,
			interest: []weighted{{secProduct, 6}, {secSearch, 3}, {secCategory, 3}, {secPrint, 1}, {secRawUTF8, 1}}},
		{actor: "Go-http-client", bot: "Go-http-client", behavior: Script, weight: 0.6,
			uas:      []string{"Go-http-client/1.1", "Go-http-client/2.0"},
			ips:      []string{"35.187.40.3", "2600:1900:4000:9e0b::1"},
			burstMin: 1, burstMax: 2, gapMin: 1, gapMax: 2,
			interest: []weighted{{secAPI, 5}, {secFeed, 3}, {secHome, 2}}},
		{actor: "Wget", bot: "Wget", behavior: Script, weight: 0.3,
			uas:      []string{"Wget/1.21.4", "Wget/1.25.0"},
			ips:      []string{"88.198.54.12"},
			burstMin: 20, burstMax: 120, gapMin: 0, gapMax: 1,
			interest: []weighted{{secProduct, 4}, {secBlog, 3}, {secDocs, 2}, {secPDF, 1}, {secImage, 2}}},
	}
}

// Browser User-Agent strings with their share of browser visitors.
var browserUAs = []struct {
	ua     string
	weight float64
}{
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36", 24},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36", 7},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36", 2},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Mobile Safari/537.36", 18},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/141.0.7390.41 Mobile/15E148 Safari/604.1", 2},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:143.0) Gecko/20100101 Firefox/143.0", 6},
	{"Mozilla/5.0 (X11; Linux x86_64; rv:143.0) Gecko/20100101 Firefox/143.0", 2},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:143.0) Gecko/20100101 Firefox/143.0", 1},
	{"Mozilla/5.0 (Android 15; Mobile; rv:143.0) Gecko/143.0 Firefox/143.0", 1},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15", 6},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1", 16},
	{"Mozilla/5.0 (iPad; CPU OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1", 2},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36 Edg/141.0.0.0", 8},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Mobile Safari/537.36 EdgA/141.0.0.0", 1},
	{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36", 2},
}

// Prefixes of residential and mobile networks browsers come from (ISP
// ranges of Deutsche Telekom, Vodafone, O2, Comcast, Orange, ...).
var browserV4Prefixes = [][2]byte{
	{79, 200}, {87, 123}, {91, 64}, {93, 104}, {46, 114}, {84, 150}, {178, 1}, {188, 96},
	{2, 204}, {92, 208}, {109, 40}, {73, 15}, {98, 210}, {176, 0}, {31, 16}, {213, 61},
}

var browserV6Prefixes = [][3]uint16{
	{0x2003, 0xe2, 0}, {0x2a02, 0x810d, 0}, {0x2a01, 0xc23, 0}, {0x2001, 0x16b8, 0},
	{0x2600, 0x1700, 0}, {0x2a02, 0x2455, 0},
}
