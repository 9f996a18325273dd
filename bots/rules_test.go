package bots

import "testing"

// The rules of bot identification precision (a browser is never a bot, a
// named crawler is named by its own token), one named case each:
// a want of "" means not a bot.
func TestIdentifyPrecisionRules(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36"
	cases := []struct{ name, ua, want string }{
		// Library tokens count only as the leading product.
		{"J2ME phone (Java in a comment)", "Nokia201/2.0 (11.21) Profile/MIDP-2.1 Configuration/CLDC-1.1 Mozilla/5.0 (Java; U; en-us; nokia201) UCBrowser8.3.0.154/70/355/UCWEB Mobile", ""},
		{"UCWEB on J2ME", "UCWEB/2.0 (Java; U; MIDP-2.0; en-US; htc-p4600) U2/1.0.0 UCBrowser/9.1.0.291 U2/1.0.0 Mobile", ""},
		{"LG Java/ASVM in a comment", "Mozilla/5.0 (LG-T500 AppleWebkit/531 Browser/Phantom/V2.0 Widget/LGMW/3.0 MMS/LG-MMS-V1.0/1.2 Java/ASVM/1.1 Profile/MIDP-2.1 Configuration/CLDC-1.1)", ""},
		{"HTC Ruby phone", "Mozilla/5.0 (Linux; Android 4.0.4; HTC Ruby Build/Speed Rom 7.8 By EclipzeRemix) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.166 Mobile Safari/535.19", ""},
		{"Samsung Dart", "Samsung Dart Android_SDK", ""},
		{"yacybot is not Java", "yacybot (/global; amd64 Linux 3.16.0-4-amd64; java 1.7.0_75; Europe/en) http://yacy.net/bot.html", "yacybot"},
		{"Java leading", "Java/1.8.0_151", "Java"},
		{"Dart leading", "Dart/3.2 (dart:io)", "Dart"},
		// A dotted name is a domain only with a real top-level domain.
		{"UP.Link gateway", "Nokia6255i/1.0 (N100V2600.nep) UP.Browser/6.2.3.2.s.1.100 (GUI) MMP/2.0 UP.Link/6.3.0.0.0", ""},
		{"Dr.Web", "Mozilla/5.0 (Windows NT 6.1; WOW64; rv:40.0) Gecko/20100101 Firefox/40.0 Dr.Web/11.0", ""},
		{"Android package id", "com.abc.mobile/5.7.14/Mozilla/5.0 (Linux; Android 9; Google Pixelbook Go Build/R99-14469.59.0; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/99.0.4844.73 Safari/537.36", ""},
		{"LG model", "Mozilla/5.0 (Linux; Android 9; LM-Q710.FG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", ""},
		{"domain product still a bot", "seo4ajax.com/1.0", "seo4ajax.com"},
		// '@' is an e-mail address only as local@domain.tld.
		{"Ecosia version after @", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 (Ecosia android@150.0.0.0)", ""},
		{"ICS@ROM build", "Mozilla/5.0 (Linux; Android 4.0.3; ARCHOS 101G9 Build/ICS@ROM_04.06.2012) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.166 Safari/535.19", ""},
		{"contact e-mail still a bot", "Mozilla/5.0 (compatible; Foo/1.0; foo@example.org)", "Foo"},
		{"e-mail after a slash", chrome + " nyt_scraping/scraping@nytimes.com", "nytimes.com"},
		// A token after "like" is not the client.
		{"Feedly like FeedFetcher-Google", "Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)", "Feedly"},
		{"FreshRSS like Googlebot", "FreshRSS/1.11.2 (Linux; https://freshrss.org) like Googlebot", "FreshRSS"},
		{"acapbot treat like Googlebot", "Mozilla/5.0 (compatible;acapbot/0.1;treat like Googlebot)", "acapbot"},
		// Crawler words appended to a complete browser header.
		{"corporate proxy", chrome + ` "CorpProxy/2.1"`, ""},
		{"Zscaler agent", chrome + " ZscalerAgent/4.2", ""},
		{"security scan gateway", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0 MailScan/3.1", ""},
		{"a bot word still counts", chrome + " ShopCrawler/3.0", "ShopCrawler"},
		{"a bare proxy is still a bot", "CorpProxy/2.1", "CorpProxy"},
		// Names are product names, never parse debris.
		{"Spinn3r label and nested comment", "Mozilla/5.0 (compatible; aggregator:Spinn3r (Spinn3r 3.1); http://spinn3r.com/robot)", "Spinn3r"},
		{"header name in the value", "User-Agent: igmHttp/0.1.501 (Android OS; HTCDesireHDA9191 ; 2.3.5; de_DE; 800x480) gzip", ""},
		{"User-Agent alone", "User-Agent", ""},
		{"log4j probe", "${java:version} http://probe.example", "java:version"},
		{"binlar version", "binlar_2.6.3 binlar2.6.3@unspecified.mail", "binlar"},
		{"grub-client version", "Mozilla/4.0 (compatible; grub-client-1.5.3; Crawl your own stuff with http://grub.org)", "grub-client"},
		// Misses worth taking.
		{"HTTP client, two words", "Mollie HTTP client/1.0", "Mollie HTTP client"},
		{"Zapier", "Zapier", "Zapier"},
		{"ManageWP", "ManageWP", "ManageWP"},
		{"VaultPress", "VaultPress", "VaultPress"},
		{"Klaviyo", "Klaviyo/1.0", "Klaviyo"},
		{"SFDC-Callout", "SFDC-Callout/49.0", "SFDC-Callout"},
		{"CookieHubVerify after a browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 CookieHubVerify/3.0", "CookieHubVerify"},
		{"Silktide after a browser", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/95.0.4638.69 Safari/537.36 Silktide", "Silktide"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := NewIdentifier().Identify(tc.ua)
			if got.IsBot != (tc.want != "") || got.Name != tc.want {
				t.Errorf("Identify(%q) = %+v, want %q", tc.ua, got, tc.want)
			}
		})
	}
}
