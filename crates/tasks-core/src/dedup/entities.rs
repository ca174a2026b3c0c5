//! Distinguishing entities: the words that tell look-alike tasks apart (issue 4, "what
//! we already know"): the month or period a recurring task is for (May rent vs June
//! rent), the relative it is for (a gift for mum vs a gift for dad), and named people
//! or clients (an invoice for Tom vs one for Marta, a contract for Brightlane vs one for
//! Casa Olivar).
//!
//! Two tasks *conflict* when both name an entity of one class and the names differ.
//! This module only extracts; the weight of a conflict is counted like every other
//! level's (`weights`), never set by hand.

use std::collections::BTreeSet;

use tasks_text::calendar;
use tasks_text::memo::WordMemo;

use crate::dedup::levels::EntityLevel;

/// The entities named by one task.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entities {
    /// Months named (1–12).
    pub months: BTreeSet<u8>,
    /// Relatives named (a canonical id per relation).
    pub kin: BTreeSet<&'static str>,
    /// Capitalized names in the title, each as its [`name_keys`] so that inflected
    /// forms and both scripts agree (Олегу / Oleg → "oleg"; Хавьер / Javier → "havi").
    pub names: BTreeSet<NameKeys>,
    /// Every word of title and description the same way (transliterated prefix): a
    /// name the other task mentions anywhere is no conflict.
    pub mentions: BTreeSet<String>,
}

/// One name as the keys it can be read by: one, or two when a Latin `j` before a vowel
/// may be read the English or the Spanish way (Javier → "iavi" and "havi").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NameKeys(Vec<String>);

impl NameKeys {
    /// Reads a name (normalized, lowercase) by [`name_keys`].
    pub fn of(word: &str) -> NameKeys {
        NameKeys(name_keys(word))
    }

    /// Returns true when any of the name's keys is among `mentions`.
    pub fn mentioned_in(&self, mentions: &BTreeSet<String>) -> bool {
        self.0.iter().any(|k| mentions.contains(k))
    }
}

/// Letters of a name kept for comparison: enough to tell names apart, few enough that
/// Russian case endings (Олег, Олегу, Олегом) fall away.
pub const NAME_PREFIX: usize = 4;

/// Relatives: word forms (normalized) → a canonical id shared across languages.
const KIN: &[(&str, &str)] = &[
    ("mum", "mother"),
    ("mom", "mother"),
    ("mother", "mother"),
    ("мама", "mother"),
    ("мамы", "mother"),
    ("маме", "mother"),
    ("маму", "mother"),
    ("мамой", "mother"),
    ("мамин", "mother"),
    ("мамина", "mother"),
    ("мамы", "mother"),
    ("madre", "mother"),
    ("mama", "mother"),
    ("dad", "father"),
    ("father", "father"),
    ("папа", "father"),
    ("папы", "father"),
    ("папе", "father"),
    ("папу", "father"),
    ("папой", "father"),
    ("папин", "father"),
    ("padre", "father"),
    ("papa", "father"),
    ("sister", "sister"),
    ("сестра", "sister"),
    ("сестры", "sister"),
    ("сестре", "sister"),
    ("сестру", "sister"),
    ("hermana", "sister"),
    ("brother", "brother"),
    ("брат", "brother"),
    ("брата", "brother"),
    ("брату", "brother"),
    ("hermano", "brother"),
    ("son", "son"),
    ("сын", "son"),
    ("сына", "son"),
    ("сыну", "son"),
    ("hijo", "son"),
    ("daughter", "daughter"),
    ("дочь", "daughter"),
    ("дочка", "daughter"),
    ("дочки", "daughter"),
    ("дочке", "daughter"),
    ("hija", "daughter"),
    ("wife", "wife"),
    ("жена", "wife"),
    ("жене", "wife"),
    ("husband", "husband"),
    ("муж", "husband"),
    ("мужу", "husband"),
    ("grandma", "grandmother"),
    ("бабушка", "grandmother"),
    ("бабушке", "grandmother"),
    ("abuela", "grandmother"),
    ("grandpa", "grandfather"),
    ("дедушка", "grandfather"),
    ("дедушке", "grandfather"),
    ("abuelo", "grandfather"),
];

/// Returns the entities named in a task's title. The description only adds mentions:
/// it quotes the source message ("Аня: открытие в июне"), whose months and names are
/// context, not what the task is for.
pub fn of(title: &str, description: &str) -> Entities {
    let mut e = Entities::default();
    scan(title, true, &mut e);
    // A long description repeats its words: each distinct word is read once.
    let mut seen: foldhash::HashSet<&str> = foldhash::HashSet::default();
    for text in [title, description] {
        for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 3) {
            if seen.insert(w) {
                e.mentions.extend(mention_keys(w));
            }
        }
    }
    e
}

/// Returns the name keys of one word of a text (normalized, then [`name_keys`]),
/// memoized per thread ([`tasks_text::memo`]): a check reads the descriptions of up to
/// 40 candidates, and their words repeat.
fn mention_keys(word: &str) -> Vec<String> {
    thread_local! {
        static MEMO: std::cell::RefCell<WordMemo<Vec<String>>> = std::cell::RefCell::default();
    }
    WordMemo::get_or_compute(&MEMO, word, || name_keys(&tasks_text::normalize(word)))
}

fn scan(text: &str, with_names: bool, e: &mut Entities) {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    for (i, raw) in words.iter().enumerate() {
        let lower = tasks_text::normalize(raw);
        let capitalized = raw.chars().next().is_some_and(char::is_uppercase);
        if let Some(m) = month(&lower, capitalized) {
            e.months.insert(m);
            continue;
        }
        if let Some((_, k)) = KIN.iter().find(|(w, _)| *w == lower) {
            e.kin.insert(k);
            continue;
        }
        let all_caps = raw.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase);
        if with_names
            && i > 0
            && capitalized
            && !all_caps
            && raw.chars().count() >= 3
            && !tasks_text::stems::is_stop_word(&lower)
            && calendar::weekday_word(&lower).is_none()
        {
            e.names.insert(NameKeys::of(&lower));
        }
    }
}

/// Month abbreviations that alone are more often another word (Spanish "mar" the sea,
/// English "ago"): the date parser reads them beside a day number ("Mar 21", "5 ago"),
/// a word-by-word match never.
const MONTH_ABBREVIATIONS_NOT_ALONE: &[&str] = &["mar", "ago"];

/// Returns the month a normalized word names (any case, any of ru/en/es), if any; not
/// for [`MONTH_ABBREVIATIONS_NOT_ALONE`].
pub fn month_of_word(lower: &str) -> Option<u8> {
    if MONTH_ABBREVIATIONS_NOT_ALONE.contains(&lower) {
        return None;
    }
    month(lower, true)
}

/// Returns the weekday (1 = Monday … 7 = Sunday) a normalized word names, in en/es/ru,
/// by the one list of weekday words ([`tasks_text::calendar`]). A short word the
/// parser reads as a weekday only in context ("sat", "sun", "mon", «ср») is left out:
/// alone it is first another word.
pub fn weekday_of_word(lower: &str) -> Option<u8> {
    let (day, ambiguous) = calendar::weekday_word(lower)?;
    if ambiguous && lower.chars().count() < 4 {
        return None;
    }
    u8::try_from(day.to_monday_one_offset()).ok()
}

/// Stems of every weekday and month word (en/es/ru, [`tasks_text::calendar`]), as the
/// stemmers write them.
static CALENDAR_STEMS: std::sync::LazyLock<BTreeSet<String>> = std::sync::LazyLock::new(|| {
    let stemmers = tasks_text::stems::Stemmers::get();
    calendar::all_words().flat_map(|w| stemmers.stem_token(w)).collect()
});

/// Returns true when a stem is a weekday's or a month's ("thu", "четверг", "январ",
/// "septemb"): a word of a date, which the due comparison weighs, never an identifier
/// however rare it is in the store.
pub fn is_calendar_stem(stem: &str) -> bool {
    CALENDAR_STEMS.contains(stem) || calendar::MONTH_STARTS_RU.iter().any(|(p, _)| stem.starts_with(p))
}

fn month(lower: &str, capitalized: bool) -> Option<u8> {
    calendar::month_mention(lower, capitalized).and_then(|m| u8::try_from(m).ok())
}

/// Transliterates Cyrillic letters to Latin (a simple ISO 9–like table), so a name
/// written in either script compares equal.
pub fn translit(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let t = match c {
            'а' => "a",
            'б' => "b",
            'в' => "v",
            'г' => "g",
            'д' => "d",
            'е' | 'ё' | 'э' => "e",
            'ж' => "zh",
            'з' => "z",
            'и' | 'й' | 'ы' => "i",
            'к' => "k",
            'л' => "l",
            'м' => "m",
            'н' => "n",
            'о' => "o",
            'п' => "p",
            'р' => "r",
            'с' => "s",
            'т' => "t",
            'у' => "u",
            'ф' => "f",
            'х' => "h",
            'ц' => "c",
            'ч' => "ch",
            'ш' | 'щ' => "sh",
            'ъ' | 'ь' => "",
            'ю' => "yu",
            'я' => "ya",
            other => {
                out.push(other);
                continue;
            }
        };
        out.push_str(t);
    }
    out
}

/// Returns the keys a model name or code compares by across scripts: a word that begins
/// with a letter and holds a digit (`RAV4`, `X5`, `C200`, `PG16`). Russian writes such a
/// name either by sound («Рав4») or with the Cyrillic letters that look like the Latin
/// ones («Х5», «С200»), so a Cyrillic one has two keys, its transliteration and its
/// look-alike letters; a Latin one is its own key. Whole words, not prefixes: the digits
/// are the model. `None` for any other word; a name split by a hyphen («Рав-4») is two
/// words by then and is not read.
pub fn model_keys(word: &str) -> Option<Vec<String>> {
    // Checked on the word as written: most words have no digit and cost no allocation.
    if !word.chars().next().is_some_and(char::is_alphabetic)
        || !word.bytes().any(|b| b.is_ascii_digit())
        || !word.chars().all(char::is_alphanumeric)
    {
        return None;
    }
    let lower = word.to_lowercase();
    if !lower.chars().any(tasks_text::stems::is_cyrillic_letter) {
        return Some(vec![lower]);
    }
    let look_alike: String = lower.chars().map(latin_look_alike).collect();
    let mut keys = vec![translit(&lower)];
    if !keys.contains(&look_alike) && !look_alike.chars().any(tasks_text::stems::is_cyrillic_letter) {
        keys.push(look_alike);
    }
    Some(keys)
}

/// The Latin letter a lowercase Cyrillic one looks like, or the letter itself.
fn latin_look_alike(c: char) -> char {
    match c {
        'а' => 'a',
        'в' => 'b',
        'е' => 'e',
        'к' => 'k',
        'м' => 'm',
        'н' => 'h',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'т' => 't',
        'у' => 'y',
        'х' => 'x',
        'і' => 'i',
        other => other,
    }
}

/// Returns the keys a word compares by across scripts and spellings: transliterated to
/// Latin, then spelled by sound — `c` before e/i/y is `s` (Mercedes / Мерседес),
/// otherwise `k`; `y` before a vowel and `ye`/`yu`/`ya` are `i` (Yulia / Юлия /
/// Julia), `w` is `v`, `ph` is `f`, `x` is `ks` — and cut to [`NAME_PREFIX`] letters. A
/// `j` before a vowel is read two ways, as English `y` and as Spanish `h` (Julia /
/// Юлия, Javier / Хавьер), and so is `qu` before e or i (`kv` in Quentin / Квентин, `k`
/// in Raquel / Ракель), so a word has one or two keys; `gu` is `gv` before a
/// (Guadalajara / Гвадалахара) and `g` before e or i (Miguel / Мигель).
pub fn name_keys(word: &str) -> Vec<String> {
    // A soft sign before a vowel is the `i` sound of a Latin spelling (Хавьер / Javier).
    let lower = word.to_lowercase().replace("ье", "ие").replace("ья", "ия").replace("ьё", "ио").replace("ью", "иу");
    let latin = translit(&lower);
    let chars: Vec<char> = latin.chars().collect();
    // Two readings side by side: `base` (English, and how Russian spells most loan
    // words) and `spanish`; they differ only where Spanish reads a letter otherwise.
    let (mut base, mut spanish) = (String::new(), String::new());
    // Most words read alike both ways; the second key is collapsed only when they differ.
    let mut differ = false;
    macro_rules! push {
        ($both:expr) => {{
            base.push_str($both);
            spanish.push_str($both);
        }};
    }
    let is_vowel = |c: char| "aeiouy".contains(c);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_next = chars.get(i + 2).copied();
        match c {
            'c' if next.is_some_and(|n| "eiy".contains(n)) => push!("s"),
            'c' if next == Some('h') => {
                push!("ch");
                i += 1;
            }
            // `gu` before a: Гвадалахара / Guadalajara, Гватемала; before e or i the u is
            // silent: Мигель / Miguel, Гильермо / Guillermo.
            'g' if next == Some('u') && after_next == Some('a') => {
                push!("gv");
                i += 1;
            }
            'g' if next == Some('u') && after_next.is_some_and(|n| "ei".contains(n)) => {
                push!("g");
                i += 1;
            }
            // `qu` is `kv` in English and before a (Квентин / Quentin, Кварта / Quarta),
            // and `k` in Spanish before e or i (Ракель / Raquel, Хоакин / Joaquín).
            'q' if next == Some('u') && after_next.is_some_and(|n| "ei".contains(n)) => {
                base.push_str("kv");
                spanish.push('k');
                differ = true;
                i += 1;
            }
            'q' if next == Some('u') => {
                push!("kv");
                i += 1;
            }
            'c' | 'q' => push!("k"),
            'p' if next == Some('h') => {
                push!("f");
                i += 1;
            }
            'w' => push!("v"),
            'x' => push!("ks"),
            'y' => push!("i"),
            'j' if next.is_some_and(is_vowel) => {
                base.push('i');
                spanish.push('h');
                differ = true;
            }
            c => {
                base.push(c);
                spanish.push(c);
            }
        }
        i += 1;
    }
    // Doubled letters read once (Анна / Ana is not the point; Yuliya / Yulia is).
    let collapse = |s: &str| {
        let mut collapsed = String::new();
        for c in s.chars() {
            if collapsed.ends_with(c) && c != 's' {
                continue;
            }
            collapsed.push(c);
        }
        collapsed.chars().take(NAME_PREFIX).collect::<String>()
    };
    let mut keys = vec![collapse(&base)];
    if differ {
        let k = collapse(&spanish);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// Returns the classes in which the two tasks name different entities.
pub fn conflicts(a: &Entities, b: &Entities) -> Vec<EntityLevel> {
    let mut out = Vec::new();
    if !a.months.is_empty() && !b.months.is_empty() && a.months.is_disjoint(&b.months) {
        out.push(EntityLevel::Month);
    }
    if !a.kin.is_empty() && !b.kin.is_empty() && a.kin.is_disjoint(&b.kin) {
        out.push(EntityLevel::Relative);
    }
    let named_by =
        |names: &BTreeSet<NameKeys>, mentions: &BTreeSet<String>| names.iter().all(|n| n.mentioned_in(mentions));
    if !named_by(&a.names, &b.mentions) && !named_by(&b.names, &a.mentions) {
        out.push(EntityLevel::Name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use EntityLevel::{Month, Name, Relative};

    #[test]
    fn weekdays_in_three_languages() {
        for (w, d) in [("четверг", 4), ("в четверг", 0), ("четверга", 4), ("jueves", 4), ("thu", 4), ("Thursday", 4)]
        {
            let n = tasks_text::normalize(w);
            assert_eq!(weekday_of_word(&n), (d > 0).then_some(d), "{w}");
        }
        assert_eq!(weekday_of_word("среду"), Some(3));
        assert_eq!(weekday_of_word("среди"), None, "«среди» is «among»");
        assert_eq!(weekday_of_word("sat"), None);
        assert_eq!(weekday_of_word("miercoles"), Some(3));
    }

    #[test]
    fn calendar_words_are_known_by_their_stems() {
        let stems = |w: &str| tasks_text::stems::Stemmers::get().stem_token(w);
        for w in ["thu", "thursday", "jueves", "четверг", "четверга", "января", "September", "mayo", "sat"]
        {
            let normalized = tasks_text::normalize(w);
            for s in stems(&normalized) {
                assert!(is_calendar_stem(&s), "{w} → {s}");
            }
        }
        for w in ["invoice", "figma", "thinkpad", "батуми", "segura", "4471"] {
            for s in stems(w) {
                assert!(!is_calendar_stem(&s), "{w} → {s}");
            }
        }
    }

    fn check(a: &str, b: &str, expected: &[EntityLevel]) {
        assert_eq!(conflicts(&of(a, ""), &of(b, "")), expected, "{a} / {b}");
    }

    #[test]
    fn look_alikes_conflict() {
        check("Pay rent for May", "Pay rent for June", &[Month]);
        check("Оплатить аренду за май", "Оплатить аренду за июнь", &[Month]);
        check("Подарок маме, 5 000 ₽", "Подарок папе, 5 000 ₽", &[Relative]);
        check("Send the invoice to Tom", "Send the invoice to Marta", &[Name]);
        check("Счёт Олегу", "Send the invoice to Oleg", &[]);
        check("Pay rent for May", "Pay rent", &[]);
        check("Renew Figma", "Renew the Figma plan", &[]);
        check("Оплатить аренду за май", "Pay the May rent", &[]);
        check("I may call", "You may call", &[]);
        check("Send the invoice by Friday", "Invoice Brightlane for the deck", &[]);
    }

    #[test]
    fn a_name_each_side_leaves_unmentioned_conflicts_despite_shared_ones() {
        // Shared capitalized words ("Senior Backend") do not hide two different people.
        check(
            "Submit interview feedback: Marcus Reyes (Senior Backend)",
            "Submit interview feedback: Joanna Kim (Senior Backend)",
            &[Name],
        );
        // One side naming more people than the other is no conflict.
        check("Intro Jess to Lucía", "Connect Jess with the Lucía team", &[]);
        check("Call Jess", "Call Jess and Lucía", &[]);
    }

    #[test]
    fn a_name_in_two_scripts_has_a_key_in_common() {
        let common = |a: &str, b: &str| {
            let (ka, kb) = (name_keys(a), name_keys(b));
            ka.iter().any(|k| kb.contains(k))
        };
        for (a, b) in [
            ("Мерседес", "Mercedes"),
            ("Хавьер", "Javier"),
            ("Даша", "Dasha"),
            ("Юлия", "Julia"),
            ("Юлия", "Yulia"),
            ("Юля", "Yulia"),
            ("Олегу", "Oleg"),
            ("Филипп", "Philipp"),
            ("Александр", "Alexander"),
            ("Гвадалахару", "Guadalajara"),
            ("Мигель", "Miguel"),
            ("Ракель", "Raquel"),
            ("Квентин", "Quentin"),
            ("Хоакин", "Joaquín"),
        ] {
            assert!(common(a, b), "{a} / {b}: {:?} {:?}", name_keys(a), name_keys(b));
        }
        for (a, b) in [("Тамар", "Mzia"), ("Javier", "Lucas"), ("Dasha", "Nika")] {
            assert!(!common(a, b), "{a} / {b}");
        }
        assert!(conflicts(&of("Hotel for Javier", ""), &of("Отель для Хавьера", "")).is_empty());
    }

    #[test]
    fn model_names_match_across_scripts() {
        let keys = |w: &str| model_keys(w).unwrap_or_default();
        // By sound and by look.
        assert!(keys("Рав4").contains(&"rav4".to_owned()));
        assert_eq!(keys("RAV4"), ["rav4"]);
        assert!(keys("Х5").contains(&"x5".to_owned()), "a Cyrillic Х that stands for the Latin X");
        assert!(keys("С200").contains(&"c200".to_owned()));
        assert!(keys("pg16").contains(&"pg16".to_owned()));
        // Not a model: no digit, a number first, punctuation inside.
        assert_eq!(model_keys("Мерседес"), None);
        assert_eq!(model_keys("250г"), None, "a quantity, read by the amounts and units");
        assert_eq!(model_keys("40к"), None);
        assert_eq!(model_keys("x-5"), None);
        // A different model stays different.
        assert!(!keys("Х6").iter().any(|k| keys("X5").contains(k)));
    }

    #[test]
    fn transliteration() {
        assert_eq!(translit("олегу"), "olegu");
        assert_eq!(translit("юля"), "yulya");
    }
}
