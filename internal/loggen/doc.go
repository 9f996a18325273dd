// Package loggen generates month-like web access traffic for tests,
// benchmarks and the demo audit (testdata/sample), deterministically from a
// seed, and writes it as combined, JSON lines or W3C (IIS) logs.
//
// The traffic is a mix of people with browsers (Chrome, Firefox, Safari,
// Edge, Samsung Internet; desktop and mobile; IPv4 and IPv6; sessions of
// pages followed by their assets, more by day than by night in the log's
// time zone), crawlers with their real User-Agent strings and a few
// addresses each from their operators' published ranges, and scripts (curl,
// python-requests, Go-http-client, Wget). The crawlers follow behaviour
// profiles (see Behavior) against the robots.txt history of Robots, so that
// an audit finds something definite: polite bots that fetch /robots.txt
// about daily and obey the copy they fetched (GPTBot is disallowed from the
// second version on and stops once it has fetched it), Bytespider ignoring
// Disallow, MJ12bot breaching Crawl-delay in bursts, DotBot breaching
// Request-rate, PetalBot crawling outside its Visit-time, a "Googlebot" from
// addresses outside Google's ranges, and browsers requesting disallowed
// paths (which an audit must never count). Config.RobotsOutages make
// /robots.txt answer with an error for a while (the sample: 503 for five
// hours, 404 for a day), and the crawlers react as RFC 9309 §2.3.1 says.
//
// Decisions:
//   - Times are whole seconds (as in combined and W3C logs) and requests are
//     emitted in time order; requests in the same second keep a fixed order.
//   - Config.Lines is exact: every line is a request, there are no blank or
//     malformed lines (tests that need broken input add it themselves).
//   - Lines are split evenly between hosts; each host gets its own crawlers
//     and visitors, and its own copy of the robots.txt history.
//   - A crawler with a Crawl-delay in its group that obeys it keeps at least
//     Crawl-delay+1 seconds between any two of its requests to a host,
//     /robots.txt included. Its volume is capped to fit the period.
//   - Polite crawlers obey the copy of robots.txt they fetched last, never
//     older than 22 hours. Because every version only adds restrictions for
//     the generated paths, their requests that a newer version disallows fall
//     in the audit's 24-hour grace (a crawler may cache robots.txt for
//     up to 24 hours, RFC 9309 §2.4), never in "disallowed".
//   - A robots.txt outage (Config.RobotsOutages) is the same for every host:
//     a /robots.txt fetch in it gets its status and an error page. What the
//     crawlers make of it is planRobots' and follows how an audit reads the
//     log's /robots.txt responses (per host and operator), as
//     the next three items say.
//   - A 5xx or 429 makes the file unreachable for the crawler's operator
//     (Request.Operator, package bots' names; Google's three crawlers are one):
//     its crawlers that obey robots.txt make nothing but /robots.txt tries
//     (RFC 9309 §2.3.1.4: complete disallow) until one of them gets a 2xx or
//     a 4xx. An operator's crawlers share that answer as they share a cached
//     copy; had each kept its own, a Googlebot that had not fetched yet would
//     crawl on in the period the audit opens for Google, and be counted in
//     disallowed_unreachable though it obeys. Their 2xx copies and fetch
//     schedules stay their own, so that traffic without outages is what it
//     was. The operator retries at the first request of one of its crawlers
//     55 to 65 minutes after its last try, and at the first at or after the
//     outage's end.
//   - A 4xx other than 429 makes the fetching crawler's copy allow
//     everything (§2.3.1.3) until its next fetch, which is due as usual or
//     at its first request at or after the outage's end, whichever comes
//     first. (A crawler cannot know when an outage ends; this stands for one
//     that re-checks a missing file soon.) So every request made on the
//     "allow all" copy falls in the period the audit opens for the operator,
//     which only a 2xx at or after the outage's end closes: had a Googlebot
//     kept crawling on it after another Googlebot fetched the file again,
//     the audit would count an obeying crawler in "disallowed". The
//     operator's other crawlers keep their copies, which can only disallow
//     more. GPTBot, disallowed everything from the second version on, comes
//     back while its copy is "allow all".
//   - Crawlers that ignore Disallow (Bytespider) retry as the others and
//     crawl on through an outage; Wget fetches at the start of each burst,
//     whatever the last answer. Spoofed crawlers and other scripts never
//     fetch.
//   - Requests an outage keeps crawlers from making are made up by browsers,
//     so Config.Lines stays exact; with Config.BotShare the second Googlebot
//     makes up for them, sized by a trial of the crawlers' robots.txt whose
//     random streams are then rewound. Without outages (RealisticConfig has
//     none) the generator writes the bytes it wrote before it had outages,
//     so benchmark logs made then stay comparable.
//     With them, a crawler's requests before the first outage are those it
//     makes without outages: each renders from the random state its
//     planning leaves without them (browser sessions, which fill the lines
//     crawlers leave, may differ anywhere).
//   - Request carries the generator's ground truth (Actor, Bot, Behavior,
//     Operator) so tests can check an audit against what was intended.
//   - The offsets written in combined and JSON lines logs are those of
//     Config.Location at each request (Europe/Berlin by default: +0200, then
//     +0100 from 2026-10-25T01:00:00Z). The time zone database is embedded
//     (time/tzdata) so the output does not depend on the machine.
package loggen
