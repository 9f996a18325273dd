// Command crawlaudit audits web crawlers' compliance with robots.txt from a
// site's access logs.
package main
