// Package locale holds every text kubeloom shows in more than one
// language, one folder per language, and formats them. It is the one
// translation mechanism: the catalog's stories (sim/catalog's Story), the
// words of kubeloom step (traces/stepview) and of the HTML page
// (traces/htmlview, whose script formats the same messages), the generated
// reference pages (docs/cli.md, docs/goroutines.md and their versions in
// docs/<code>/) and the words the CLI prints around its English help.
//
// The folders are embedded; each is named by its language code, the code
// --lang takes:
//
//	en/                the reference: every other folder has exactly its files and keys
//	  language.yaml    the language's name in itself, a short label and its BCP 47 tag
//	  goroutines.yaml  the catalog's stories of goroutines, by catalog name: summary, quote, now
//	  steps.yaml       the stories of startup steps, by service.name and span name: summary, quote
//	  stepview.yaml    kubeloom step's words
//	  page.yaml        the HTML page's words
//	  docs.yaml        the generated reference pages' words
//	  cli.yaml         the words commands print around their help
//	zh/                the same in Chinese; its quotes are the articles' words, verbatim
//
// Adding a language is adding a folder: copy en/, translate every value,
// and every list of languages (Codes: --lang, kubeloom step's l, the
// page's language button, the docs written per language) has it. Load
// problems (YAML that does not parse, a key missing or extra, a message
// that does not parse) name the file and line; go test ./sim/catalog/...
// lists them all.
//
// goroutines.yaml and steps.yaml are told as they are written. Every other
// file holds messages (see message): {name} for an argument, {n, plural,
// one {…} other {…}} for a form chosen by a number, '{' for a brace.
package locale
