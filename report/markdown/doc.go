// Package markdown renders report.md: the findings of an
// audit as GitHub-flavoured Markdown tables, for a ticket or a pull request —
// summary, bots, broken rules, disallowed paths, breaches, block list,
// robots.txt outages and versions, reactions to changes.
//
// Strings from logs are attacker-controlled. Bot names are written as they
// are only when they hold nothing Markdown reads (Name); paths, User-Agents,
// rules and other strings are code spans (Code) or escaped text (Text), so
// that none can add a cell, a row, a link, an image, HTML, a mention or math
// to the report. Every list is the top N of report.Findings, and the report
// says N and the total.
package markdown
