//! People's first names in Russian, English and Spanish, with their diminutives and
//! spellings across scripts: «Аня», «Анечка», «Анна», "Anya", "Ania", "Ana" are one
//! person's name. A name in a title is how a person points at a task («позвонила
//! Анечке» for «Позвонить Ане про плитку»), and the same name written in two scripts is
//! the same evidence ("Dasha" / «Даша»).
//!
//! Each group lists the forms a name is written in; Cyrillic forms are compared by
//! their Russian stem (so every case ending matches: «Ане», «Аню», «Ани»), Latin forms
//! as written (lowercase, without diacritics). Names that are also common words
//! («Вера» faith, «Роза» rose, «Мила» dear, «Надежда» hope, «Любовь» love) are left out:
//! they would match the words.
//!
//! What it deliberately does not do: tell whether a word is a name (callers know: a
//! capitalized word in a title) or hold surnames.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::normalize::normalize;
use crate::stems::{Script, Stemmers, script_of};

/// Name groups: every form of one first name.
const GROUPS: &[&[&str]] = &[
    &[
        "анна",
        "аня",
        "анечка",
        "анюта",
        "аннушка",
        "нюра",
        "анька",
        "анютка",
        "anna",
        "anya",
        "ania",
        "anja",
        "ana",
        "annie",
    ],
    &["бахтиёр", "бахтиер", "баха", "bakhtiyor", "bakhtiyar", "bakha"],
    &["елена", "лена", "леночка", "ленка", "ленуся", "elena", "lena", "helen", "helena"],
    &["мария", "маша", "машенька", "маня", "машка", "машуля", "maria", "masha", "mary", "marie"],
    &["ольга", "оля", "олечка", "олька", "olga", "olya", "olia"],
    &["татьяна", "таня", "танечка", "танька", "tatiana", "tatyana", "tanya", "tania"],
    &[
        "екатерина",
        "катя",
        "катенька",
        "катюша",
        "катька",
        "ekaterina",
        "katerina",
        "katya",
        "katia",
        "kasia",
        "kate",
        "catherine",
    ],
    &["юлия", "юля", "юленька", "yulia", "julia", "yulya", "julie", "julija"],
    &["анастасия", "настя", "настенька", "anastasia", "nastya", "nastia"],
    &["дарья", "даша", "дашенька", "дашка", "darya", "daria", "dasha"],
    &["светлана", "света", "светочка", "svetlana", "sveta"],
    &["наталья", "наталия", "наташа", "natalia", "natalya", "natasha", "natalie"],
    &["ирина", "ира", "ирочка", "ириша", "иришка", "ируся", "irina", "ira"],
    &["евгения", "евгений", "женя", "женечка", "evgenia", "evgeny", "yevgeny", "zhenya", "eugene"],
    &["александра", "александр", "саша", "сашенька", "шура", "alexandra", "alexander", "aleksandr", "sasha", "alex"],
    &["дмитрий", "дима", "димочка", "митя", "димка", "димон", "dmitry", "dmitri", "dima"],
    &["михаил", "миша", "мишенька", "мишка", "мишутка", "mikhail", "misha", "michael", "miguel"],
    &["николай", "коля", "николаша", "nikolai", "nikolay", "kolya", "nicholas"],
    &["владимир", "вова", "володя", "vladimir", "vova", "volodya"],
    &["петр", "пётр", "петя", "petr", "pyotr", "petya", "peter", "pedro"],
    &["варвара", "варя", "варенька", "варюша", "varvara", "varya", "barbara"],
    &["фёдор", "федор", "федя", "федька", "федюша", "феденька", "fyodor", "fedor", "fedya"],
    &["юрий", "юра", "юрочка", "юрка", "yuri", "yury", "yura"],
    &["иван", "ваня", "ванечка", "ivan", "vanya", "john", "juan"],
    &["сергей", "сережа", "серёжа", "серега", "серёга", "сережка", "sergey", "sergei", "seryozha", "sergio"],
    &["алексей", "леша", "лёша", "алеша", "alexey", "alexei", "aleksey", "lyosha", "alyosha"],
    &["андрей", "андрюша", "andrey", "andrei", "andrew", "andres"],
    &["олег", "олежка", "oleg"],
    // «Лев» loses its vowel in every other case: «Льва», «Льву».
    &["лев", "льва", "лёва", "лева", "левушка", "lev", "lyova", "leo"],
    // "Davit" is the Armenian and Georgian spelling.
    &["давид", "дэвид", "david", "davit", "dave", "дейв", "дэйв"],
    &["павел", "павла", "паша", "pavel", "pawel", "pasha", "paul", "pablo"],
    &["константин", "костя", "костик", "konstantin", "kostya"],
    &["максим", "макс", "maxim", "maksim", "max"],
    &["артем", "артём", "тема", "artem", "artyom"],
    &["игорь", "игорек", "igor"],
    &["григорий", "гриша", "grigory", "grisha", "gregory"],
    &["борис", "боря", "boris", "borya"],
    &["георгий", "гоша", "жора", "georgy", "george", "jorge"],
    &["галина", "галя", "galina", "galya"],
    &["людмила", "люда", "lyudmila", "ludmila", "lyuda"],
    &["софия", "софья", "соня", "сонечка", "сонька", "сонюшка", "sofia", "sofya", "sonya", "sophie"],
    &["полина", "поля", "polina", "polya"],
    &["ксения", "ксюша", "ксюшенька", "ksenia", "kseniya", "ksyusha"],
    &["валентина", "валя", "valentina", "valya"],
    &["марина", "marina"],
    &["кристина", "kristina", "christina"],
    &["мерседес", "mercedes"],
    // Spanish short forms: "Javi" is Javier, "Pepe" José, "Nacho" Ignacio.
    &["хавьер", "хави", "javier", "xavier", "javi", "xavi"],
    &["хосе", "пепе", "jose", "pepe"],
    &["игнасио", "ignacio", "nacho"],
    &["сантьяго", "santiago", "santi"],
    &["рафаэль", "rafael", "rafa"],
    &["франсиско", "francisco", "paco", "pancho"],
    &["карлос", "carlos"],
    &["лусия", "лючия", "lucia"],
    &["том", "томас", "tom", "thomas", "tomas"],
    &["марк", "mark", "marc", "marcos"],
    &["сэм", "sam", "samuel"],
];

/// Returns the groups a word may name (the indexes into the table), by its stem for a
/// Cyrillic word and as written for a Latin one.
pub fn name_groups(word: &str) -> Vec<usize> {
    // (Normalized once: every word of every candidate's title is asked.)
    let word = &normalize(word);
    let key = name_key(word);
    if let Some(groups) = index().get(&key) {
        return groups.clone();
    }
    // "artyoms", "katyas", "iras": an English possessive written without its
    // apostrophe. A name of five letters or more is read so; a shorter one when it ends
    // in a vowel, as a Russian short name does ("iras" is Ira's, "dimas" Dima's), where
    // an "s" after a consonant makes a plural ("marks" are a school's, not Mark's).
    let vowel_ending = |b: &str| b.ends_with(['a', 'e', 'i', 'o', 'u', 'y']);
    if let Some(bare) =
        key.strip_suffix('s').filter(|b| b.is_ascii() && (b.len() >= 5 || (b.len() >= 3 && vowel_ending(b))))
    {
        return index().get(bare).cloned().unwrap_or_default();
    }
    let possessive = russian_possessive(word);
    if !possessive.is_empty() {
        return possessive;
    }
    let declined = declined(word);
    if !declined.is_empty() {
        return declined;
    }
    diminutive(word)
}

/// The suffixes a Russian diminutive of a first name adds to the name's root, longest
/// first, each with the shortest root it is read from: «Кир|очк|е» is Kira, «Сав|ушк|у»
/// Savva, «Ул|ечк|ой» Ulya, «Ульян|к|е» Ulyana; «Рит|ул|я», «Мар|ус|я», «Кат|юш|а» take a
/// bare «-ул-», «-ус-», «-уш-» (and their «ю» forms).
const DIMINUTIVE_SUFFIXES: &[(&str, usize)] = &[
    ("еньк", 2),
    ("оньк", 2),
    ("уськ", 2),
    ("юськ", 2),
    ("очк", 2),
    ("ечк", 2),
    ("ушк", 2),
    ("юшк", 2),
    ("уш", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("юш", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("ус", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("юс", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("ул", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("юл", BARE_SUFFIX_ROOT_MIN_CHARS),
    ("к", BARE_K_ROOT_MIN_CHARS),
];

/// The case endings a diminutive in «-ка» takes, longest first (and none: «Кирочк»
/// is no word, but the table is asked for the root anyway).
const DIMINUTIVE_ENDINGS: &[&str] = &["ой", "ою", "ей", "а", "и", "е", "у", "я", "ю"];

/// Shortest root a diminutive in a bare «-к-» is read from: «Ульян|ка»; a shorter one
/// is too often a word's («рук|а», «нож|ка»).
const BARE_K_ROOT_MIN_CHARS: usize = 4;

/// Shortest root a diminutive in a bare «-ул-», «-ус-» or «-уш-» is read from: «Рит|уля»;
/// a shorter one is too often a word's («к|уша|ть», «б|уси»).
const BARE_SUFFIX_ROOT_MIN_CHARS: usize = 3;

/// Returns the root of a Russian diminutive of a first name, its suffix and case ending
/// taken off: «кирочке» → «кир», «савушку» → «сав», «ульянке» → «ульян». None for a
/// word no diminutive suffix ends. Whether the root is a name is the caller's question:
/// a table of names ([`name_groups`]) or a name in a title.
pub fn diminutive_root(word: &str) -> Option<String> {
    diminutive_root_of_normalized(&normalize(word))
}

/// [`diminutive_root`] of a word already normalized (a token's, say): normalizing runs
/// the folds to a fixed point, twice at least, and the matcher asks this of every word
/// of every title it reads.
pub fn diminutive_root_of_normalized(word: &str) -> Option<String> {
    if script_of(word) != Script::Cyrillic {
        return None;
    }
    let without_ending = DIMINUTIVE_ENDINGS.iter().find_map(|e| word.strip_suffix(e))?;
    DIMINUTIVE_SUFFIXES.iter().find_map(|(suffix, min_root)| {
        let root = without_ending.strip_suffix(suffix)?;
        (root.chars().count() >= *min_root).then(|| root.to_string())
    })
}

/// «Кирочке», «Савушку», «Улечкой»: a diminutive the table does not list, read as the
/// name its root makes with «-а» or «-я», or with its last consonant doubled («Сав» →
/// «Савва»). Not for a word the lexicon knows. `word` is normalized.
fn diminutive(word: &str) -> Vec<usize> {
    let Some(root) = diminutive_root_of_normalized(word) else { return Vec::new() };
    if !crate::concepts_of(word).is_empty() {
        return Vec::new();
    }
    let doubled = root.chars().last().filter(|c| !"аеёиоуыэюяй".contains(*c)).map(|c| format!("{root}{c}а"));
    let mut groups: Vec<usize> = Vec::new();
    for name in [format!("{root}а"), format!("{root}я")].into_iter().chain(doubled) {
        for g in index().get(&name_key(&name)).into_iter().flatten() {
            if !groups.contains(g) {
                groups.push(*g);
            }
        }
    }
    groups
}

/// «Рустаму», «Рустама»: a name in another case whose stem is not its nominative's
/// (the stemmer reads «рустам» as «руст» + a plural ending). The case ending is taken
/// off and the rest looked up as a nominative. Not for a word the lexicon knows.
fn declined(word: &str) -> Vec<usize> {
    const ENDINGS: &[&str] = &["ом", "ем", "ой", "ей", "у", "а", "е", "ю", "я", "ы", "и"];
    if script_of(word) != Script::Cyrillic || word.chars().count() < 5 {
        return Vec::new();
    }
    // (Every Cyrillic word that is no name comes here: the lexicon is asked only once a
    // base is found.)
    ENDINGS
        .iter()
        .filter_map(|e| word.strip_suffix(e))
        .find_map(|base| index().get(&name_key(base)).cloned())
        .filter(|_| crate::concepts_of(word).is_empty())
        .unwrap_or_default()
}

/// «Сонин самокат», «Лёвин хоккей», «Сониных рисунков»: a Russian possessive of a first
/// name in «-ин» is that name's. Not for a word the lexicon knows («машину» is a car,
/// not Masha's).
fn russian_possessive(word: &str) -> Vec<usize> {
    const ENDINGS: &[&str] =
        &["иными", "иного", "иному", "иной", "иных", "иным", "ином", "ина", "ину", "ины", "ино", "ин"];
    if script_of(word) != Script::Cyrillic || word.chars().count() < 5 || !crate::concepts_of(word).is_empty() {
        return Vec::new();
    }
    let Some(base) = ENDINGS.iter().find_map(|e| word.strip_suffix(e)) else { return Vec::new() };
    ["а", "я"].iter().filter_map(|v| index().get(&name_key(&format!("{base}{v}")))).flatten().copied().fold(
        Vec::new(),
        |mut groups, g| {
            if !groups.contains(&g) {
                groups.push(g);
            }
            groups
        },
    )
}

/// Returns every form of the names a word may be (empty when it is no name known):
/// «Анечке» → «анна», «аня», …, "anya" — what a search adds so that a diminutive finds
/// the full name.
pub fn name_forms(word: &str) -> Vec<&'static str> {
    name_groups(word).into_iter().flat_map(|g| groups()[g].iter().copied()).collect()
}

/// Returns the key a name form is looked up by.
fn name_key(normalized: &str) -> String {
    match script_of(normalized) {
        Script::Cyrillic => Stemmers::get().stem_token(normalized).into_iter().next().unwrap_or_default(),
        _ => normalized.to_string(),
    }
}

/// More groups, from a table kept as text (`names_more.txt`: how it was written and
/// filtered is said at its top). A form may be in a group of [`GROUPS`] too: the two
/// groups are then one name's, and a word of either finds both.
const MORE_GROUPS: &str = include_str!("names_more.txt");

/// Every group: [`GROUPS`], then the text table's.
fn groups() -> &'static [Vec<&'static str>] {
    static ALL: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let more = MORE_GROUPS
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|line| line.split('|').map(str::trim).filter(|form| !form.is_empty()).collect());
        GROUPS.iter().map(|group| group.to_vec()).chain(more).collect()
    })
}

fn index() -> &'static HashMap<String, Vec<usize>> {
    static INDEX: OnceLock<HashMap<String, Vec<usize>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, group) in groups().iter().enumerate() {
            for form in group {
                let key = name_key(&normalize(form));
                let entry = map.entry(key).or_default();
                if !entry.contains(&i) {
                    entry.push(i);
                }
            }
        }
        map
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn same(a: &str, b: &str) {
        let (x, y) = (name_groups(a), name_groups(b));
        assert!(x.iter().any(|g| y.contains(g)), "{a} {x:?} / {b} {y:?}");
    }

    #[test]
    fn one_name_in_every_form() {
        same("Ане", "Anya");
        // Spanish short forms.
        same("хави", "Javier");
        same("Pepe", "Хосе");
        same("nacho", "Ignacio");
        same("paco", "франсиско");
        same("анечке", "Аня");
        same("Аню", "Anna");
        same("Маше", "Masha");
        same("Машеньке", "maria");
        same("Даша", "Dasha");
        same("Юлия", "Yulia");
        same("Юле", "Julia");
        same("Мерседес", "Mercedes");
        same("Хавьер", "Javier");
        same("Олегом", "Oleg");
        same("Лены", "Lena");
        // A possessive in «-ин» is the name's.
        same("сонин", "Соня");
        same("Сониных", "Sonya");
        same("лёвин", "Lev");
        same("Димину", "Dima");
        // From the text table: a diminutive and its Latin spelling, and one that joins a
        // group of the code's table («Кейт» is Kate, whom «Катя» is too).
        same("виталик", "Vitaly");
        same("Рустаму", "rustam");
        same("кейт", "Катя");
        // An English possessive without its apostrophe, a short name too.
        same("iras", "Ира");
        same("artyoms", "Артём");
        // A diminutive the table does not list, by its root.
        same("кирочке", "Kira");
        same("Савушку", "Savva");
        same("тимочке", "Timofey");
    }

    #[test]
    fn a_diminutive_has_a_root() {
        assert_eq!(diminutive_root("кирочке").as_deref(), Some("кир"));
        assert_eq!(diminutive_root("Савушку").as_deref(), Some("сав"));
        assert_eq!(diminutive_root("ульянке").as_deref(), Some("ульян"));
        // A bare «-ул-», «-ус-», «-уш-» from a root of three letters.
        assert_eq!(diminutive_root("ритуля").as_deref(), Some("рит"));
        assert_eq!(diminutive_root("ритусю").as_deref(), Some("рит"));
        assert_eq!(diminutive_root("катюше").as_deref(), Some("кат"));
        assert_eq!(diminutive_root("буси"), None);
        // A bare «-к-» needs a root of four letters; a Latin word has none.
        assert_eq!(diminutive_root("ручка"), None);
        assert_eq!(diminutive_root("kira"), None);
    }

    /// The text table keeps the rules its top states: no form is a word the lexicon
    /// knows, and no form is in two of its groups.
    #[test]
    fn the_text_table_keeps_its_rules() {
        // Every broken rule is listed, not only the first: the table is edited in bulk.
        let mut seen = std::collections::HashSet::new();
        let mut broken = Vec::new();
        for line in MORE_GROUPS.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            for form in line.split('|').map(str::trim) {
                let in_code = GROUPS.iter().any(|g| g.contains(&form));
                if !in_code && !crate::concepts_of(form).is_empty() {
                    broken.push(format!("{form}: a lexicon word"));
                }
                if !seen.insert(form) {
                    broken.push(format!("{form}: in two groups"));
                }
                // A Cyrillic stem of two letters starts too many words («та», «ул»).
                let key = name_key(&normalize(form));
                if !in_code && script_of(form) == Script::Cyrillic && key.chars().count() < 3 {
                    broken.push(format!("{form}: stem «{key}» too short"));
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
        assert!(seen.len() > 1000, "{} forms", seen.len());
    }

    #[test]
    fn words_are_not_names() {
        for word in ["машину", "машины", "вера", "роза", "invoice", "книгу", "marks"] {
            assert!(name_groups(word).is_empty(), "{word}: {:?}", name_groups(word));
        }
    }
}
