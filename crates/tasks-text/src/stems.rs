//! Word tokens, stop-words and Snowball stems of a task's text (SPEC §5.1).
//!
//! Stemmers are chosen by script, never by language detection (which is unreliable on
//! 2–4-word titles): Cyrillic tokens get the Russian stem, Latin tokens get both the
//! English and the Spanish stem (deduplicated), tokens with digits are kept whole.
//!
//! What it deliberately does not do: no language detection, no spelling correction, no
//! synonyms (see `lexicon`), no removal of due or amount phrases beyond the stop-words
//! below — the seed's worked example keeps `friday` among the stems.

use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::memo::WordMemo;
use crate::normalize::{is_currency_symbol, normalize};

/// The three Snowball stemmers, built once.
///
/// `rust_stemmers::Stemmer` is a function pointer, cheap to build, but the duplicate
/// check stems every task on import; one shared instance keeps that free.
pub struct Stemmers {
    russian: Stemmer,
    english: Stemmer,
    spanish: Stemmer,
}

/// The one shared set of stemmers.
static STEMMERS: LazyLock<Stemmers> = LazyLock::new(|| Stemmers {
    russian: Stemmer::create(Algorithm::Russian),
    english: Stemmer::create(Algorithm::English),
    spanish: Stemmer::create(Algorithm::Spanish),
});

/// The writing system a token is stemmed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// Only Cyrillic letters: Russian Snowball.
    Cyrillic,
    /// Only Latin letters: English and Spanish Snowball.
    Latin,
    /// Contains a digit (`15000`, `10.04`, `x5`, `65к`): kept whole.
    Numeric,
    /// Anything else (mixed scripts, Greek, CJK …): kept whole.
    Other,
}

/// A Snowball language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// Russian.
    Russian,
    /// English.
    English,
    /// Spanish.
    Spanish,
}

/// One content token of a text and its stems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenStems {
    /// The normalized token.
    pub token: String,
    /// The script that chose the stemmers.
    pub script: Script,
    /// The token's stems: one, or two for a Latin token whose English and Spanish stems
    /// differ (English first).
    pub stems: Vec<String>,
    /// The stems of its camel-case parts ([`camel_case_parts`]) not among `stems`: kept
    /// apart because the lexicon reads `stems` as (English, Spanish).
    pub parts: Vec<String>,
}

impl TokenStems {
    /// Returns the token's own stems, then its parts' stems: what the duplicate check's
    /// title profile matches and indexes.
    pub fn all_stems(&self) -> impl Iterator<Item = &String> {
        self.stems.iter().chain(&self.parts)
    }
}

impl Stemmers {
    /// Returns the shared stemmers.
    pub fn get() -> &'static Stemmers {
        &STEMMERS
    }

    /// Returns the stem of one normalized, lowercase word in the given language.
    pub fn stem(&self, language: Language, word: &str) -> String {
        let stemmer = match language {
            Language::Russian => &self.russian,
            Language::English => &self.english,
            Language::Spanish => &self.spanish,
        };
        stemmer.stem(word).into_owned()
    }

    /// Returns the stems of one normalized token: Russian for Cyrillic, English then
    /// Spanish for Latin (one entry when they agree), the token itself otherwise.
    ///
    /// Memoized per thread ([`crate::memo`]): a check stems the descriptions of up to 40
    /// candidates, whose words repeat, and a Latin token costs two Snowball runs.
    pub fn stem_token(&self, token: &str) -> Vec<String> {
        thread_local! {
            static MEMO: std::cell::RefCell<WordMemo<Vec<String>>> = std::cell::RefCell::default();
        }
        WordMemo::get_or_compute(&MEMO, token, || self.stem_token_uncached(token))
    }

    fn stem_token_uncached(&self, token: &str) -> Vec<String> {
        match script_of(token) {
            Script::Cyrillic => vec![self.russian.stem(token).into_owned()],
            Script::Latin => {
                let en = self.english.stem(token).into_owned();
                let es = self.spanish.stem(token).into_owned();
                if en == es { vec![en] } else { vec![en, es] }
            }
            Script::Numeric | Script::Other => vec![token.to_owned()],
        }
    }
}

/// Returns the script a normalized token is stemmed by.
pub fn script_of(token: &str) -> Script {
    if token.chars().any(|c| c.is_ascii_digit()) {
        return Script::Numeric;
    }
    let cyrillic = token.chars().all(is_cyrillic_letter);
    let latin = token.chars().all(|c| c.is_alphabetic() && is_latin_letter(c));
    match (cyrillic, latin) {
        (true, false) => Script::Cyrillic,
        (false, true) => Script::Latin,
        _ => Script::Other,
    }
}

/// Returns true for letters of the Cyrillic block.
pub fn is_cyrillic_letter(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c) && c.is_alphabetic()
}

/// Returns true for Latin letters (after normalization: ASCII and the few that do
/// not fold to ASCII).
fn is_latin_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c)
}

/// Returns true when a normalized token carries no content for comparison.
///
/// Stop-words are function words of Russian, English and Spanish (prepositions,
/// articles, pronouns, conjunctions, auxiliaries, fillers), plus two families that the
/// signature carries better than the words do:
/// - currency and magnitude words (`руб`, `usd`, `euros`, `тыс`, `млн`, `mil`): the
///   amount signature reads them, and their spelling varies (`₽`/`руб.`/`RUB`);
/// - relative-day words (`today`, `tomorrow`, `eod`, `сегодня`, `завтра`, `hoy`,
///   `mañana`): the due signature reads them, and they say nothing about the job.
///
/// Weekday and month names are NOT stop-words: "rent for May" and "rent for June" are
/// different jobs, and the seed's worked example keeps `friday`.
/// Single letters are dropped too (`x`, `р`, `y`, `в`): after normalization they are
/// prepositions, conjunctions or leftovers of abbreviations.
pub fn is_stop_word(token: &str) -> bool {
    let mut chars = token.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_alphabetic()
    {
        return true;
    }
    STOP_WORDS.binary_search(&token).is_ok()
}

/// Returns the content tokens of already normalized text: not stop-words, not currency
/// symbols, in text order (duplicates kept).
pub fn content_tokens(normalized: &str) -> impl Iterator<Item = &str> {
    normalized.split(' ').filter(|t| !t.is_empty()).filter(|t| is_content_token(t))
}

/// Returns true for a token [`content_tokens`] keeps: not a currency symbol, not a
/// stop-word.
fn is_content_token(token: &str) -> bool {
    !token.chars().all(is_currency_symbol) && !is_stop_word(token)
}

/// Returns each content token of `text` with its stems, in text order.
///
/// A camel-case word ("BouncyCastle", "ITestS3SelectLandsat") also gets the stems of its
/// parts ([`camel_case_parts`]), in [`TokenStems::parts`]: bug titles name one thing as
/// an identifier in one report and as words in the next ("Bouncy Castle", "AccessPoint
/// ARN"), and normalization lowercases the boundaries away. The token is still one
/// token, so a title's word count does not grow.
pub fn token_stems(text: &str) -> Vec<TokenStems> {
    let normalized = normalize(text);
    let stemmers = Stemmers::get();
    let camel = camel_case_words(text);
    content_tokens(&normalized)
        .map(|token| {
            let stems = stemmers.stem_token(token);
            let mut parts: Vec<String> = Vec::new();
            if let Some((_, words)) = camel.iter().find(|(word, _)| word == token) {
                for stem in words.iter().flat_map(|p| stemmers.stem_token(p)) {
                    if !stems.contains(&stem) && !parts.contains(&stem) {
                        parts.push(stem);
                    }
                }
            }
            TokenStems { token: token.to_owned(), script: script_of(token), stems, parts }
        })
        .collect()
}

/// Fewest letters a camel-case part needs to count ("I" of "ITest", "S3" and "IO" are
/// not words).
const MIN_CAMEL_PART: usize = 3;

/// Returns the camel-case words of raw `text`, lowercased, each with its parts.
fn camel_case_words(text: &str) -> Vec<(String, Vec<String>)> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|word| {
            let parts = camel_case_parts(word);
            (!parts.is_empty()).then(|| (word.to_ascii_lowercase(), parts))
        })
        .collect()
}

/// Splits an ASCII camel-case word at its case changes, lowercased, keeping the parts
/// of at least [`MIN_CAMEL_PART`] letters that are not stop-words: "parseAccessPoint" →
/// parse, access, point; "ITestS3Select" → test, select; "HTTPServer" → http, server.
/// Empty for a word without an inner capital after a small letter or a digit, or
/// before a small letter after capitals (an ordinary word, "NASA", "Mercedes").
pub fn camel_case_parts(word: &str) -> Vec<String> {
    // Every cut is at a capital after the first letter: most words have none, and this
    // runs for each word of every title the check profiles (forty candidates a check).
    if !word.bytes().skip(1).any(|b| b.is_ascii_uppercase()) {
        return Vec::new();
    }
    let chars: Vec<char> = word.chars().collect();
    if chars.is_empty() || !chars.iter().all(char::is_ascii_alphanumeric) {
        return Vec::new();
    }
    let mut cuts = Vec::new();
    for i in 1..chars.len() {
        let (prev, here) = (chars[i - 1], chars[i]);
        let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        let small_then_capital = (prev.is_ascii_lowercase() || prev.is_ascii_digit()) && here.is_ascii_uppercase();
        let capitals_then_word = prev.is_ascii_uppercase() && here.is_ascii_uppercase() && next_lower;
        if small_then_capital || capitals_then_word {
            cuts.push(i);
        }
    }
    if cuts.is_empty() {
        return Vec::new();
    }
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(chars.len());
    bounds
        .windows(2)
        .map(|w| chars[w[0]..w[1]].iter().collect::<String>().to_ascii_lowercase())
        .filter(|p| p.len() >= MIN_CAMEL_PART && p.chars().all(|c| c.is_ascii_alphabetic()) && !is_stop_word(p))
        .collect()
}

/// Returns the unique stems of `text` in first-seen order.
///
/// `"Send the invoice for 15 000 ₽ by Friday"` gives `send, invoic, 15000, friday`.
pub fn stems(text: &str) -> Vec<String> {
    stems_of_normalized(&normalize(text))
}

/// Returns the unique stems of already normalized text in first-seen order.
///
/// A token seen before is not stemmed again, and seen stems are kept in a set: a long
/// description repeats its words, and a search of the list for each stem was quadratic
/// (a 4,000-character bug report took milliseconds, profiled as a candidate per check).
pub fn stems_of_normalized(normalized: &str) -> Vec<String> {
    let stemmers = Stemmers::get();
    let mut out: Vec<String> = Vec::new();
    // foldhash, not SipHash: these sets hash every word of up to 41 descriptions per
    // check. Repeats are dropped before the stop-word search, which then runs once per
    // distinct word.
    let mut tokens_seen: foldhash::HashSet<&str> = foldhash::HashSet::default();
    let mut stems_seen: foldhash::HashSet<String> = foldhash::HashSet::default();
    for token in normalized.split(' ').filter(|t| !t.is_empty()) {
        if !tokens_seen.insert(token) || !is_content_token(token) {
            continue;
        }
        for stem in stemmers.stem_token(token) {
            if stems_seen.insert(stem.clone()) {
                out.push(stem);
            }
        }
    }
    out
}

/// Stop-words, normalized (lowercase, `ё`→`е`, no Latin accents), sorted for binary
/// search (a test checks the order).
///
/// Russian: the Snowball list plus everyday fillers; English and Spanish: the Snowball
/// lists trimmed of rare forms plus task fillers. Currency, magnitude and relative-day
/// words: see [`is_stop_word`].
#[rustfmt::skip]
static STOP_WORDS: &[&str] = &[
    "about", "after", "again", "al", "algo", "algun", "alguna", "algunas", "alguno", "algunos",
    "all", "also", "am", "an", "and", "ante", "antes", "any", "are", "as", "asap", "at", "be",
    "been", "before", "being", "both", "but", "by", "can", "chf", "cny", "como", "con",
    "contra", "could", "cual", "cuando", "de", "del", "desde", "did", "do", "does", "dolar",
    "dolares", "dollar", "dollars", "donde", "down", "due", "durante", "each", "el", "ella",
    "ellas", "ellos", "en", "entre", "eod", "era", "es", "esa", "esas", "ese", "eso", "esos",
    "esta", "estan", "estar", "estas", "este", "esto", "estos", "eur", "euro", "euros", "favor",
    "for", "from", "fue", "gbp", "get", "got", "had", "has", "have", "hay", "he", "her", "here",
    "hers", "him", "his", "how", "hoy", "if", "in", "inr", "into", "is", "it", "its", "just",
    "kzt", "la", "las", "le", "les", "lo", "los", "manana", "mas", "me", "mi", "mia", "mil",
    "million", "millions", "millon", "millones", "mine", "mio", "mis", "more", "mucho", "muy",
    "my", "need", "needs", "ni", "no", "nor", "nos", "nosotros", "not", "now", "nuestra",
    "nuestro", "o", "of", "off", "ok", "on", "once", "only", "or", "os", "other", "otra",
    "otro", "our", "ours", "out", "over", "para", "pero", "please", "pls", "plz", "poco", "por",
    "porfa", "porque", "que", "quien", "re", "rub", "rur", "se", "sea", "she", "should", "si",
    "sin", "so", "sobre", "some", "son", "su", "sus", "than", "that", "the", "their", "theirs",
    "them", "then", "there", "these", "they", "this", "those", "thousand", "through", "to",
    "today", "todo", "todos", "tomorrow", "tonight", "too", "tu", "tus", "uah", "un", "una",
    "unas", "uno", "unos", "until", "up", "us", "usd", "very", "via", "was", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
    "ya", "yo", "you", "your", "yours", "а", "без", "более", "бы", "был", "была", "были",
    "было", "быть", "вам", "вас", "ведь", "во", "вот", "все", "всего", "всех", "всю", "вы",
    "где", "гривен", "грн", "да", "даже", "для", "до", "долл", "доллар", "доллара", "долларов",
    "евро", "его", "ее", "ей", "ему", "если", "есть", "еще", "же", "за", "завтра", "зачем",
    "здесь", "из", "или", "им", "их", "как", "какая", "какой", "ко", "когда", "кто", "куда",
    "ли", "либо", "между", "меня", "млн", "мне", "много", "может", "можно", "мой", "мою", "моя",
    "мы", "на", "над", "надо", "наш", "наша", "наши", "нашу", "не", "него", "нее", "нет", "ни",
    "ним", "них", "но", "ну", "нужна", "нужно", "нужны", "об", "он", "она", "они", "оно", "от",
    "очень", "по", "под", "пожалуйста", "послезавтра", "потом", "потому", "почти", "при", "про",
    "раз", "руб", "рублей", "рубль", "рубля", "с", "сам", "свои", "свой", "свою", "себе",
    "себя", "сегодня", "сейчас", "со", "срочно", "так", "также", "такой", "там", "тебе", "тебя",
    "тем", "то", "того", "тоже", "только", "том", "тр", "ты", "тыс", "тысяч", "тысяча",
    "тысячи", "у", "уже", "чем", "через", "что", "чтоб", "чтобы", "чуть", "шт", "эта", "эти",
    "это", "этого", "этой", "этом", "этот", "эту", "я",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &[&str]) {
        assert_eq!(stems(input), expected, "stems({input:?})");
    }

    #[test]
    fn stop_words_are_sorted_and_normalized() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, STOP_WORDS, "STOP_WORDS must be sorted and unique");
        for w in STOP_WORDS {
            assert_eq!(&normalize(w), w, "stop-word {w:?} is not normalized");
        }
    }

    #[test]
    fn seed_worked_example() {
        check("Send the invoice for 15 000 ₽ by Friday", &["send", "invoic", "15000", "friday"]);
        check("Send the invoice for 15000 ₽", &["send", "invoic", "15000"]);
        check("Send the contract invoice, 40 000 ₽", &["send", "contract", "invoic", "40000"]);
    }

    #[test]
    fn by_script() {
        check("Счёт на 45 000 ₽ за меню — отправить Олегу", &["счет", "45000", "мен", "отправ", "олег"]);
        check("Счет Лесной Кухне", &["счет", "лесн", "кухн"]);
        check(
            "Enviar factura del anticipo (1.500 €)",
            &["enviar", "envi", "factura", "factur", "anticipo", "anticip", "1500"],
        );
        check("Pagar a Paula 120 € por PayPal", &["pagar", "pag", "paula", "paul", "120", "paypal"]);
        check("Redacción / Redaccion", &["redaccion"]);
        check("Ad placement: 15000 RUB", &["ad", "placement", "15000"]);
        check("до 10.04 в 11:30", &["10.04", "11:30"]);
        check("Аренда за июнь, 65к", &["аренд", "июн", "65к"]);
        check("the a и в el la", &[]);
    }

    #[test]
    fn camel_case_words_are_split_at_their_case_changes() {
        for (word, parts) in [
            ("BouncyCastle", &["bouncy", "castle"][..]),
            ("parseAccessPointFromArn", &["parse", "access", "point", "arn"]),
            ("ITestS3SelectLandsat", &["test", "select", "landsat"]),
            ("HTTPServer", &["http", "server"]),
            ("readVectored", &["read", "vectored"]),
            ("PayPal", &["pay", "pal"]),
            ("iPhone", &["phone"]),
            ("Mercedes", &[]),
            ("NASA", &[]),
            ("invoice", &[]),
            ("X1", &[]),
            ("Ёлка", &[]),
        ] {
            assert_eq!(camel_case_parts(word), parts, "{word}");
        }
    }

    #[test]
    fn a_camel_case_token_matches_its_parts_and_stays_one_token() {
        let got = token_stems("Upgrade BouncyCastle to 1.69");
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[1].token, "bouncycastle");
        assert_eq!(got[1].stems, ["bouncycastl"], "its own stems stay (English, Spanish) for the lexicon");
        assert_eq!(got[1].parts, ["bounci", "bouncy", "castl"], "its parts' stems, English and Spanish");
        assert_eq!(got[1].all_stems().collect::<Vec<_>>(), ["bouncycastl", "bounci", "bouncy", "castl"]);
        let words = token_stems("Update Bouncy Castle to 1.68");
        assert!(words.iter().all(|t| t.parts.is_empty()), "plain words get no parts: {words:?}");
    }

    #[test]
    fn token_stems_keep_alternatives() {
        let got = token_stems("Enviar la factura");
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].token, "enviar");
        assert_eq!(got[0].stems, ["enviar", "envi"]);
    }

    #[test]
    fn scripts() {
        for (token, script) in [
            ("счет", Script::Cyrillic),
            ("invoice", Script::Latin),
            ("15000", Script::Numeric),
            ("65к", Script::Numeric),
            ("pеport", Script::Other),
            ("αβ", Script::Other),
        ] {
            assert_eq!(script_of(token), script, "{token}");
        }
    }
}
