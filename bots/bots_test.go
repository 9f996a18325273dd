package bots

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// Real User-Agent strings, written as the crawlers send them (from their
// operators' documentation and from the logs in ../shared/data/real-logs).
var crawlerCases = []struct {
	name, ua string
	want     string // Bot.Name
	operator string
	purpose  string
}{
	{"Googlebot desktop", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", "Google", PurposeSearch},
	{"Googlebot bare", "Googlebot/2.1 (+http://www.google.com/bot.html)", "Googlebot", "Google", PurposeSearch},
	{"Googlebot smartphone", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", "Google", PurposeSearch},
	{"Googlebot desktop evergreen", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/126.0.6478.126 Safari/537.36", "Googlebot", "Google", PurposeSearch},
	{"Googlebot-Image", "Googlebot-Image/1.0", "Googlebot-Image", "Google", PurposeSearch},
	{"Googlebot-News", "Googlebot-News", "Googlebot-News", "Google", PurposeSearch},
	{"Googlebot-Video", "Googlebot-Video/1.0", "Googlebot-Video", "Google", PurposeSearch},
	{"Storebot-Google", "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36", "Storebot-Google", "Google", PurposeSearch},
	{"AdsBot-Google", "AdsBot-Google (+http://www.google.com/adsbot.html)", "AdsBot-Google", "Google", PurposeOther},
	{"AdsBot-Google-Mobile", "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "AdsBot-Google-Mobile", "Google", PurposeOther},
	{"Mediapartners-Google", "Mediapartners-Google", "Mediapartners-Google", "Google", PurposeOther},
	{"Google-InspectionTool", "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)", "Google-InspectionTool", "Google", PurposeSearch},
	{"GoogleOther", "Mozilla/5.0 (compatible; GoogleOther)", "GoogleOther", "Google", PurposeOther},
	{"FeedFetcher-Google", "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)", "FeedFetcher-Google", "Google", PurposeFeed},
	{"Google-CloudVertexBot", "Mozilla/5.0 (compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search)", "Google-CloudVertexBot", "Google", PurposeAIAssistant},
	{"bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", "Microsoft", PurposeSearch},
	{"bingbot evergreen", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot", "Microsoft", PurposeSearch},
	{"bingbot in IIS W3C log", "Mozilla/5.0+(compatible;+bingbot/2.0;++http://www.bing.com/bingbot.htm)", "bingbot", "Microsoft", PurposeSearch},
	{"BingPreview", "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/534+ (KHTML, like Gecko) BingPreview/1.0b", "BingPreview", "Microsoft", PurposeSearch},
	{"msnbot", "msnbot/2.0b (+http://search.msn.com/msnbot.htm)", "msnbot", "Microsoft", PurposeSearch},
	{"msnbot-media", "msnbot-media/1.1 (+http://search.msn.com/msnbot.htm)", "msnbot-media", "Microsoft", PurposeSearch},
	{"GPTBot 1.3 (darcien log)", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)", "GPTBot", "OpenAI", PurposeAITraining},
	{"ChatGPT-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User", "OpenAI", PurposeAIAssistant},
	{"OAI-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", "OAI-SearchBot", "OpenAI", PurposeAISearch},
	{"ClaudeBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot", "Anthropic", PurposeAITraining},
	{"Claude-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)", "Claude-User", "Anthropic", PurposeAIAssistant},
	{"Claude-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)", "Claude-SearchBot", "Anthropic", PurposeAISearch},
	{"anthropic-ai", "anthropic-ai", "anthropic-ai", "Anthropic", PurposeAITraining},
	{"CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "Common Crawl Foundation", PurposeAITraining},
	{"PerplexityBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "PerplexityBot", "Perplexity", PurposeAISearch},
	{"Perplexity-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)", "Perplexity-User", "Perplexity", PurposeAIAssistant},
	{"Bytespider", "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider", "ByteDance", PurposeAITraining},
	{"meta-externalagent", "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalagent", "Meta", PurposeAITraining},
	{"meta-externalfetcher", "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalfetcher", "Meta", PurposeAIAssistant},
	{"facebookexternalhit", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit", "Meta", PurposeSocial},
	{"Amazonbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36", "Amazonbot", "Amazon", PurposeAITraining},
	{"Applebot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot", "Apple", PurposeSearch},
	{"YandexBot", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot", "Yandex", PurposeSearch},
	{"YandexImages", "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "YandexImages", "Yandex", PurposeSearch},
	{"YandexMetrika", "Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)", "YandexMetrika", "Yandex", PurposeMonitor},
	{"YandexMobileBot", "Mozilla/5.0 (iPhone; CPU iPhone OS 15_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Mobile/15E148 Safari/604.1 (compatible; YandexMobileBot/3.0; +http://yandex.com/bots)", "YandexMobileBot", "Yandex", PurposeSearch},
	{"Baiduspider", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider", "Baidu", PurposeSearch},
	{"Baiduspider-image", "Baiduspider-image+(+http://www.baidu.com/search/spider.htm)", "Baiduspider-image", "Baidu", PurposeSearch},
	{"Baiduspider-render", "Mozilla/5.0 (iPhone; CPU iPhone OS 9_1 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0 Mobile/13B143 Safari/601.1 (compatible; Baiduspider-render/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider-render", "Baidu", PurposeSearch},
	{"AhrefsBot", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot", "Ahrefs", PurposeSEO},
	{"SemrushBot", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "SemrushBot", "Semrush", PurposeSEO},
	{"MJ12bot", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot", "Majestic", PurposeSEO},
	{"DotBot", "Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)", "DotBot", "Moz", PurposeSEO},
	{"PetalBot", "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)", "PetalBot", "Huawei", PurposeSearch},
	{"BLEXBot", "Mozilla/5.0 (compatible; BLEXBot/1.0; +http://webmeup-crawler.com/)", "BLEXBot", "WebMeUp", PurposeSEO},
	{"DataForSeoBot", "Mozilla/5.0 (compatible; DataForSeoBot/1.0; +https://dataforseo.com/dataforseo-bot)", "DataForSeoBot", "DataForSEO", PurposeSEO},
	{"Barkrowler", "Mozilla/5.0 (compatible; Barkrowler/0.9; +https://babbar.tech/crawler)", "Barkrowler", "Babbar", PurposeSEO},
	{"DuckDuckBot", "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot", "DuckDuckGo", PurposeSearch},
	{"Yahoo Slurp", "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp", "Yahoo", PurposeSearch},
	{"SeznamBot", "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)", "SeznamBot", "Seznam.cz", PurposeSearch},
	{"Sogou", "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "Sogou", "Sogou", PurposeSearch},
	{"Exabot", "Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)", "Exabot", "Exalead", PurposeSearch},
	{"ia_archiver", "ia_archiver (+http://www.alexa.com/site/help/webmasters; crawler@alexa.com)", "ia_archiver", "Amazon (Alexa)", PurposeArchiver},
	{"archive.org_bot", "Mozilla/5.0 (compatible; archive.org_bot +http://www.archive.org/details/archive.org_bot)", "archive.org_bot", "Internet Archive", PurposeArchiver},
	{"Twitterbot", "Twitterbot/1.0", "Twitterbot", "X (Twitter)", PurposeSocial},
	{"LinkedInBot beats Apache-HttpClient", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "LinkedInBot", "LinkedIn", PurposeSocial},
	{"Pinterestbot", "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)", "Pinterestbot", "Pinterest", PurposeSocial},
	{"Slackbot link expanding", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slackbot", "Slack", PurposeSocial},
	{"Discordbot", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "Discordbot", "Discord", PurposeSocial},
	{"TelegramBot", "TelegramBot (like TwitterBot)", "TelegramBot", "Telegram", PurposeSocial},
	{"WhatsApp", "WhatsApp/2.23.20.0 A", "WhatsApp", "Meta", PurposeSocial},
	{"Mastodon over http.rb", "http.rb/5.1.1 (Mastodon/4.2.1; +https://mastodon.social/)", "Mastodon", "", PurposeSocial},
	{"UptimeRobot", "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", "UptimeRobot", "UptimeRobot", PurposeMonitor},
	{"Pingdom", "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)", "Pingdom", "SolarWinds", PurposeMonitor},
	{"Datadog synthetics", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 DatadogSynthetics", "Datadog", "Datadog", PurposeMonitor},
	{"Site24x7", "Site24x7", "Site24x7", "Zoho", PurposeMonitor},
	{"Qwantify", "Mozilla/5.0 (compatible; Qwantify/2.4w; +https://www.qwant.com/)/2.4w", "Qwantify", "Qwant", PurposeSearch},
	{"MojeekBot", "MojeekBot/0.11 (archi; mojeek.com/bot.html)", "MojeekBot", "Mojeek", PurposeSearch},
	{"SeekportBot", "Mozilla/5.0 (compatible; SeekportBot; +https://bot.seekport.com)", "SeekportBot", "Seekport", PurposeSearch},
	{"serpstatbot", "serpstatbot/2.1 (advanced backlink tracking bot; https://serpstatbot.com/; abuse@serpstatbot.com)", "serpstatbot", "Serpstat", PurposeSEO},
	{"Scrapy", "Scrapy/2.11.0 (+https://scrapy.org)", "Scrapy", "", PurposeScript},
}

var scriptCases = []struct{ ua, want string }{
	{"curl/8.5.0", "curl"},
	{"Wget/1.21.4", "Wget"},
	{"python-requests/2.31.0", "python-requests"},
	{"Python-urllib/3.12", "Python-urllib"},
	{"python-httpx/0.27.0", "python-httpx"},
	{"Python/3.11 aiohttp/3.9.1", "aiohttp"},
	{"Go-http-client/1.1", "Go-http-client"},
	{"Go-http-client/2.0", "Go-http-client"},
	{"Java/17.0.9", "Java"},
	{"Apache-HttpClient/4.5.14 (Java/17.0.9)", "Apache-HttpClient"},
	{"okhttp/4.12.0", "okhttp"},
	{"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "node-fetch"},
	{"axios/1.6.2", "axios"},
	{"undici", "undici"},
	{"node", "node"},
	{"libwww-perl/6.72", "libwww-perl"},
	{"PHP/8.2", "PHP"},
	{"GuzzleHttp/7", "GuzzleHttp"},
	{"Ruby", "Ruby"},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36", "HeadlessChrome"},
	{"Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1", "PhantomJS"},
	{"Apache Nutch/1.19", "Nutch"},
	{"Mozilla/5.0 (compatible; heritrix/3.4.0 +https://example.org/crawler)", "heritrix"},
	{"masscan/1.3 (https://github.com/robertdavidgraham/masscan)", "masscan"},
	{"Mozilla/5.0 zgrab/0.x", "zgrab"},
	{"Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)", "Nmap Scripting Engine"},
	{"Dart/3.2 (dart:io)", "Dart"},
}

// Browsers and in-app browsers, current as of 2026, and older ones that
// still turn up in logs. None of them is a bot.
var browserCases = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0",
	"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:140.0) Gecko/20100101 Firefox/140.0",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (iPad; CPU OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 OPR/120.0.0.0",
	"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Android 15; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.156 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 EdgiOS/138.0.3351.83 Mobile/15E148 Safari/605.1.15",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 EdgA/138.0.0.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 YaBrowser/25.6.0.0 Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Vivaldi/7.5",
	// In-app browsers.
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22F76 [FBAN/FBIOS;FBAV/520.0.0.38.101;FBBV/735000000;FBDV/iPhone16,2;FBMD/iPhone;FBSN/iOS;FBSV/18.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]",
	"Mozilla/5.0 (Linux; Android 14; SM-A546B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.63 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/520.0.0.50.109;]",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 389.0.0.32.108 (iPhone15,3; iOS 18_5; en_US; en; scale=3.00; 1290x2796; 752283548)",
	"Mozilla/5.0 (Linux; Android 15; CPH2557 Build/AP3A.240617.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.7444.142 Mobile Safari/537.36 Instagram 406.0.0.58.159 Android (35/15; 480dpi; 1080x2400; OPPO; CPH2557; OP573DL1; mt6833; en_MY; 822918295; IABMV/1) NV/1",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/15.9.1",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 TikTok 40.2.0 rv:402013 (iPhone; iOS 18.5; en_US) Cronet",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/376.0.779833014 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 13; 2201116SG Build/TKQ1.221114.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.63 Mobile Safari/537.36 MicroMessenger/8.0.60.2860(0x28003C37) WeChat/arm64 Weixin NetType/WIFI Language/en ABI/arm64",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/13.50.0.40 (like Safari/8621.1.15.10.7, panda)",
	"Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.63 Mobile Safari/537.36 Pinterest for Android/13.25.2",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) discord/1.0.9200 Chrome/134.0.6998.205 Electron/35.7.5 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.45.60 Chrome/138.0.7204.100 Electron/37.2.0 Safari/537.36 Slack_SSB/4.45.60",
	// Device names with "bot" in them.
	"Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Linux; Android 12; KingKong 9 Build/SP1A.210812.016; CUBOT) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
	// Older browsers.
	"Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
	"Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)",
	"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727; Media Center PC 6.0)",
	"Opera/9.80 (Windows NT 6.1; U; en) Presto/2.12.388 Version/12.18",
	"Mozilla/5.0 (compatible; Konqueror/4.5; Linux) KHTML/4.5.4 (like Gecko)",
	"Mozilla/5.0 (Windows NT 6.1; WOW64; rv:52.0) Gecko/20100101 Firefox/52.0",
	"Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.8",
}

func TestIdentifyCrawlers(t *testing.T) {
	for _, tc := range crawlerCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Identify(tc.ua)
			want := Bot{Name: tc.want, Operator: tc.operator, Purpose: tc.purpose, IsBot: true, Known: true}
			if got != want {
				t.Errorf("Identify(%q)\n got %+v\nwant %+v", tc.ua, got, want)
			}
		})
	}
}

func TestIdentifyScripts(t *testing.T) {
	for _, tc := range scriptCases {
		got := Identify(tc.ua)
		if got.Name != tc.want || !got.IsBot || !got.Known || got.Purpose != PurposeScript && got.Purpose != PurposeArchiver {
			t.Errorf("Identify(%q) = %+v, want known script %q", tc.ua, got, tc.want)
		}
	}
}

func TestIdentifyBrowsersAreNotBots(t *testing.T) {
	for _, ua := range browserCases {
		if got := Identify(ua); got != (Bot{}) {
			t.Errorf("Identify(%q) = %+v, want a browser (zero Bot)", ua, got)
		}
	}
}

// Crawlers the table does not list are still found, by their own words or
// by uap-go, and named as they write themselves.
func TestIdentifyUnlisted(t *testing.T) {
	cases := []struct{ ua, want, operator, purpose string }{
		{"Mozilla/5.0 (compatible; trovitBot 1.0; +http://www.trovit.com/bot.html)", "trovitBot", "", PurposeOther},
		{"Mozilla/5.0 (compatible; NewCrawler/2.3; +https://newcrawler.example/about)", "NewCrawler", "", PurposeOther},
		{"FAST Enterprise Crawler 6 used by WWU (wardi@uni-muenster.de)", "FAST Enterprise Crawler", "", PurposeOther},
		{"Mozilla/5.0 (compatible; Vagabondo/2.1; webcrawler at wise-guys dot nl)", "Vagabondo", "", PurposeOther},
		{"YahooSeeker/1.0 (compatible; Mozilla 4.0; MSIE 5.5; http://search.yahoo.com/yahooseeker.html)", "YahooSeeker", "", PurposeOther},
		{"Mozilla/5.0 (compatible; Twingly Recon; twingly.com)", "Twingly Recon", "", PurposeOther},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ShopCrawler/3.0", "ShopCrawler", "", PurposeOther},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; rakutenusabot-image/1.0) Chrome/114.0.0.0 Safari/537.36", "rakutenusabot-image", "", PurposeOther},
		{"Mozilla/5.0 (compatible; Googlebot-Foo/1.0; +http://www.google.com/bot.html)", "Googlebot-Foo", "Google", PurposeSearch},
		{"Mozilla/5.0 (compatible; YandexSomethingNew/1.0; +http://yandex.com/bots)", "YandexSomethingNew", "", PurposeOther},
		{"Feedfinder (+http://feeds.example)", "Feedfinder", "", PurposeOther},
		{"larbin_2.6.3 larbin2.6.3@unspecified.mail", "larbin", "", PurposeOther},
	}
	for _, tc := range cases {
		got := Identify(tc.ua)
		want := Bot{Name: tc.want, Operator: tc.operator, Purpose: tc.purpose, IsBot: true}
		if got != want {
			t.Errorf("Identify(%q)\n got %+v\nwant %+v", tc.ua, got, want)
		}
	}
}

// A uap-go family whose lowercase form has another length than itself (the
// Kelvin sign U+212A lowercases to the one-byte 'k') must not make the name
// lookup in the header slice past its end: Identify panicked on this header.
func TestIdentifyFamilyWithNonASCIIFold(t *testing.T) {
	for _, ua := range []string{
		"\u212Aa/1 CFNetwork/1 yahoo ka",
		"x\u212A\u212A/1 CFNetwork/1 yahoo kk",
	} {
		got := NewIdentifier().Identify(ua)
		if !got.IsBot || !utf8.ValidString(got.Name) || !strings.Contains(ua, got.Name) {
			t.Errorf("Identify(%q) = %+v, want a bot named by a valid substring of the header", ua, got)
		}
	}
}

func TestIdentifyNoUserAgent(t *testing.T) {
	for _, ua := range []string{"", "-", "  ", "\t-\t"} {
		got := Identify(ua)
		want := Bot{Name: NoUserAgent, Purpose: PurposeScript, IsBot: true}
		if got != want {
			t.Errorf("Identify(%q) = %+v, want %+v", ua, got, want)
		}
	}
}

// The matching rule: a product name bounded on both sides, case-insensitive,
// crawler before library, longest first.
func TestMatchRule(t *testing.T) {
	cases := []struct{ ua, want string }{
		{"googlebot/2.1", "Googlebot"},
		{"GOOGLEBOT", "Googlebot"},
		{"Googlebot-Image/1.0 Googlebot/2.1", "Googlebot-Image"},
		{"Googlebot/2.1 Googlebot-Image/1.0", "Googlebot-Image"},
		{"(compatible; AdsBot-Google-Mobile-Apps)", "AdsBot-Google-Mobile-Apps"},
		{"Mozilla/5.0 (compatible; Exabot-Thumbnails)", "Exabot"},
		{"curl/8.0 (compatible; ClaudeBot/1.0)", "ClaudeBot"},
		{"python-requests/2.31 Java/17", "python-requests"},
		{"Mozilla/5.0 (compatible;+GPTBot/1.2;++https://openai.com/gptbot)", "GPTBot"},
		{"xGPTBot/1.0", "xGPTBot"},            // not bounded: found by the generic rule, named as written
		{"GPTBotx/1.0", "GPTBotx"},            // same
		{"MyCurlThing/1.0", ""},               // "curl" not bounded, and no crawler word
		{"Mozilla/5.0 [curl]", "curl"},        // brackets bound
		{"'Wget/1.0'", "Wget"},                // quotes bound
		{"Googlebot-Mobile/2.1", "Googlebot"}, // another spelling of Googlebot
	}
	for _, tc := range cases {
		got := Identify(tc.ua)
		if got.Name != tc.want {
			t.Errorf("Identify(%q).Name = %q, want %q (%+v)", tc.ua, got.Name, tc.want, got)
		}
	}
}

// Results never alias the header: the audit passes strings that point into
// Arrow buffers, which are released and reused after the batch.
func TestIdentifyDoesNotRetainInput(t *testing.T) {
	id := NewIdentifier()
	buf := []byte("Mozilla/5.0 (compatible; UnlistedThingBot/1.0; +https://x.example)")
	ua := unsafe.String(&buf[0], len(buf)) // aliases buf, as an Arrow string does
	b := id.Identify(ua)
	if b.Name != "UnlistedThingBot" {
		t.Fatalf("Name = %q", b.Name)
	}
	for i := range buf {
		buf[i] = 'x'
	}
	if b.Name != "UnlistedThingBot" {
		t.Fatalf("Name changed with the input buffer: %q", b.Name)
	}
	if got := id.Identify("Mozilla/5.0 (compatible; UnlistedThingBot/1.0; +https://x.example)"); got != b {
		t.Fatalf("cached answer %+v, want %+v", got, b)
	}
	if got := id.Identify(strings.Repeat("x", len(buf))); got.IsBot {
		t.Fatalf("overwritten header identified as %+v", got)
	}
}

func TestTableIntegrity(t *testing.T) {
	valid := map[string]bool{}
	for _, p := range Purposes {
		valid[p] = true
	}
	seen := map[string]bool{}
	for _, c := range Crawlers() {
		if !valid[c.Purpose] {
			t.Errorf("%s: purpose %q is not in Purposes", c.Name, c.Purpose)
		}
		if seen[strings.ToLower(c.Name)] {
			t.Errorf("%s listed twice", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		if c.RobotsOnly {
			continue
		}
		// Every table name identifies itself, as a bare header and inside a
		// compatible comment.
		uas := []string{c.Name + "/1.0", "Mozilla/5.0 (compatible; " + c.Name + "; +https://example.com/bot)"}
		if c.Leading {
			uas = uas[:1] // only as the leading product
		}
		for _, ua := range uas {
			if got := Identify(ua); got.Name != c.Name || !got.Known {
				t.Errorf("Identify(%q) = %+v, want %s", ua, got, c.Name)
			}
		}
	}
	if n := len(Crawlers()); n < 150 {
		t.Errorf("table has %d entries, want at least 150", n)
	}
	if c, ok := Lookup("GOOGLE-EXTENDED"); !ok || c.Operator != "Google" || !c.RobotsOnly {
		t.Errorf("Lookup(GOOGLE-EXTENDED) = %+v, %v", c, ok)
	}
	if c, ok := Lookup("slackbot-linkexpanding"); !ok || c.Name != "Slackbot" {
		t.Errorf("Lookup(slackbot-linkexpanding) = %+v, %v", c, ok)
	}
	// Crawlers returns a copy.
	cs := Crawlers()
	cs[0].Name = "changed"
	if Crawlers()[0].Name == "changed" {
		t.Error("Crawlers does not return a copy")
	}
}

// One Identifier serves the audit's workers at once.
func TestIdentifyConcurrent(t *testing.T) {
	id := NewIdentifier()
	var uas []string
	for _, tc := range crawlerCases {
		uas = append(uas, tc.ua)
	}
	uas = append(uas, browserCases...)
	want := make([]Bot, len(uas))
	ref := NewIdentifier()
	for i, ua := range uas {
		want[i] = ref.identify(ua)
	}
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func() {
			ok := true
			for i, ua := range uas {
				if got := id.Identify(ua); got != want[i] {
					t.Errorf("concurrent Identify(%q) = %+v, want %+v", ua, got, want[i])
					ok = false
				}
			}
			done <- ok
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
}

// TestUAPBudget: past MaxUAPCalls, headers that only uap-go could decide are
// not bots, and are counted.
func TestUAPBudget(t *testing.T) {
	const ua = "Mozilla/5.0 (Linux; U; Zq 9.1) Qwzx/77"
	// A header with no table token and no generic signal goes to uap-go.
	fresh := NewIdentifier()
	fresh.Identify(ua)
	if fresh.uapCalls.Load() != 1 {
		t.Fatalf("the test header did not reach uap-go (%d calls)", fresh.uapCalls.Load())
	}
	id := NewIdentifier()
	id.uapCalls.Store(MaxUAPCalls)
	b := id.Identify(ua)
	if b.IsBot {
		t.Errorf("past the budget: %+v", b)
	}
	if id.UAPSkipped() != 1 {
		t.Errorf("UAPSkipped = %d, want 1", id.UAPSkipped())
	}
	// The table still answers.
	if b := id.Identify("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"); b.Name != "Googlebot" {
		t.Errorf("table past the budget: %+v", b)
	}
}
