//! Russian and English verb forms: pasts, participles, infinitives and prefixes.

use super::*;

/// Returns the infinitives a Russian first-person future may be of: «сдам» (сдать),
/// «куплю» (купить), «заплачу» (заплатить), «схожу» (сходить), «напишу» (написать),
/// «сделаю» (сделать), «позвоню» (позвонить). Candidates only: the caller keeps the one
/// an open task's verb is.
pub(super) fn infinitives_of_future(word: &str) -> Vec<String> {
    const RU: &[(&str, &[&str])] = &[
        ("ам", &["ать"]),
        ("лю", &["ить", "еть"]),
        ("чу", &["тить", "тать"]),
        ("жу", &["дить", "зить"]),
        ("шу", &["сать", "сить"]),
        ("щу", &["стить", "скать"]),
        ("ю", &["ть", "ить"]),
        ("у", &["ить", "ать"]),
    ];
    if word.chars().count() < 4 || !word.chars().all(|c| matches!(c, 'а'..='я' | 'ё')) {
        return Vec::new();
    }
    RU.iter()
        .filter_map(|(end, infs)| word.strip_suffix(end).map(|stem| (stem, *infs)))
        .flat_map(|(stem, infs)| infs.iter().map(move |inf| format!("{stem}{inf}")))
        .collect()
}

/// Returns the infinitives a past form may be of: «заказала» → «заказать», «записался» →
/// «записаться», "updated" → "update", "updat".
pub(super) fn infinitives_of_past(word: &str) -> Vec<String> {
    const RU: &[(&str, &str)] =
        &[("лась", "ться"), ("лся", "ться"), ("лись", "ться"), ("ла", "ть"), ("ли", "ть"), ("ло", "ть"), ("л", "ть")];
    if let Some((stem, end)) = RU.iter().find_map(|(past, inf)| word.strip_suffix(past).map(|s| (s, inf))) {
        return vec![format!("{stem}{end}")];
    }
    match word.strip_suffix("ed") {
        Some(stem) => vec![format!("{stem}e"), stem.to_string()],
        None => Vec::new(),
    }
}

/// English irregular pasts and the verbs they are forms of.
pub(super) const IRREGULAR_BASE: &[(&str, &str)] = &[
    ("bought", "buy"),
    ("paid", "pay"),
    ("sent", "send"),
    ("wrote", "write"),
    ("made", "make"),
    ("took", "take"),
    ("got", "get"),
    ("gave", "give"),
    ("brought", "bring"),
    ("sold", "sell"),
    ("told", "tell"),
    ("met", "meet"),
    ("found", "find"),
    ("built", "build"),
    ("drove", "drive"),
    ("fed", "feed"),
    ("spoke", "speak"),
    ("went", "go"),
    ("rang", "ring"),
];

/// A Russian verb without its prefix and its past, infinitive or first-person present
/// ending: «дозвонилась», «позвонить» → «звони»; «отдаю» / «Отдать» → «отда».
pub(super) fn verb_root(word: &str) -> String {
    // «сти» before «ти»: «отвести» / «отвела» share «отве».
    let endings =
        ["лась", "лся", "лись", "ться", "чься", "ла", "ли", "ло", "ть", "сти", "ти", "чь", "л", "ся", "ю", "у"];
    let mut w = word;
    for e in endings {
        if let Some(stripped) = w.strip_suffix(e) {
            w = stripped;
            break;
        }
    }
    for p in VERB_PREFIXES {
        if let Some(stripped) = w.strip_prefix(p)
            && stripped.chars().count() >= 3
        {
            w = stripped;
            break;
        }
    }
    w.to_string()
}

/// Common nouns that end like a masculine past verb (-ал, -ил, -ел …).
pub(super) const NOUNS_LIKE_PAST: &[&str] = &[
    "пенал",
    "канал",
    "журнал",
    "финал",
    "сериал",
    "материал",
    "вокзал",
    "сигнал",
    "портал",
    "подвал",
    "персонал",
    "капитал",
    "интервал",
    "оригинал",
    "терминал",
    "скандал",
    "идеал",
    "квартал",
    "генерал",
    "бокал",
    "крокодил",
    "котел",
    "орел",
    "пепел",
    "кинозал",
    "минерал",
    "арсенал",
    "зеркало",
    "стул",
    "одеяло",
    "начало",
    "покрывало",
    "мочало",
    // Nouns in «-ла», and masculine nouns in «-л» in their genitive: «школа у льва —
    // готово» is about the school.
    "школа",
    "пчела",
    "скала",
    "стрела",
    "метла",
    "смола",
    "стола",
    "стула",
    "котла",
    "пенала",
    "канала",
    "журнала",
    "вокзала",
    "материала",
    "сигнала",
    "подвала",
    "сериала",
    "квартала",
    "бокала",
    // Nouns in «-сла» (a case of «-сло»): «с арендой кресла всё» is about the chair.
    "кресла",
    "весла",
    "масла",
    "числа",
    "смысла",
    "ремесла",
];

/// A verb in the past tense: Russian -ла/-ли/-ло/-лась or a masculine vowel + -л (not a
/// noun that ends so: «пенал», «канал»), English -ed or an irregular past.
pub(super) fn is_past(token: &str) -> bool {
    let n = token.chars().count();
    let masculine = {
        let mut rev = token.chars().rev();
        rev.next() == Some('л')
            && rev.next().is_some_and(|c| "аеиыяуё".contains(c))
            && !NOUNS_LIKE_PAST.contains(&token)
    };
    // The neuter «-ло» only after a vowel («стало», «было»): «масло», «кресло», «число»
    // are nouns.
    let neuter = {
        let mut rev = token.chars().rev();
        token.ends_with("ло") && rev.nth(2).is_some_and(|c| "аеиыяуё".contains(c)) && !NOUNS_LIKE_PAST.contains(&token)
    };
    let cyrillic = token.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
    // «заказл», «поздравл»: a masculine past with its vowel before «-л» dropped by a typo
    // (no noun of six letters or more ends so but «промысл»).
    let dropped_vowel = {
        let mut rev = token.chars().rev();
        n >= 6 && rev.next() == Some('л') && rev.next().is_some_and(|c| !"аеиыяуёоюэьй".contains(c))
    };
    let ru = cyrillic
        && ((n >= 5
            && ((["ла", "ли", "лась", "лся", "лись", "лсь"].iter().any(|e| token.ends_with(e))
                && !NOUNS_LIKE_PAST.contains(&token))
                || masculine
                || neuter
                || dropped_vowel))
            // «сдал», «взял», «дал»: a short masculine past.
            || (n == 4 && masculine));
    // «отвёз», «принёс», «испёк», «помог»: masculine pasts with no «-л».
    // («подстригся»: the reflexive ending after one.)
    let base = token.strip_suffix("ся").unwrap_or(token);
    let ru_irregular = cyrillic
        && RU_PAST_WITHOUT_L
            .iter()
            .any(|p| base == *p || base.strip_suffix(p).is_some_and(|prefix| VERB_PREFIXES.contains(&prefix)));
    // "tied", "dried": four letters are enough for a past of -ie.
    // ("breed", "speed", "bleed" end so and are none: a past in "-eed" is "agreed",
    // "freed".)
    let not_a_past = token.ends_with("eed") && !matches!(token, "agreed" | "freed" | "guaranteed" | "decreed");
    let en = token.is_ascii()
        && !not_a_past
        && ((n >= 5 && token.ends_with("ed"))
            || (n == 4 && token.ends_with("ied"))
            || IRREGULAR_PAST.contains(&token)
            || MORE_IRREGULAR_PAST.contains(&token));
    ru || ru_irregular || en
}

/// Russian masculine pasts that end in no «-л», alone or after a verb prefix (от-вёз,
/// при-нёс, ис-пёк; «бизнес» has no prefix).
pub(super) const RU_PAST_WITHOUT_L: &[&str] =
    &["вёз", "вез", "нёс", "нес", "пёк", "пек", "помог", "смог", "стёр", "запер", "стриг"];

/// «оплачено», «куплен», «отправлена», «написан», «собран»: a Russian past participle
/// says the task is done. The -ан/-ян forms end like many nouns in the genitive
/// («еревана», «банана»), so they count only with a verb prefix («на-писан»,
/// «со-бран», «вы-зван», «под-писан») or as a known short form.
pub(super) fn is_done_participle(token: &str) -> bool {
    // «сдан», «снята», «взято»: short forms of short verbs.
    if SHORT_PARTICIPLES.iter().any(|p| token.strip_prefix(p).is_some_and(|end| matches!(end, "" | "а" | "о" | "ы")))
    {
        return true;
    }
    // «помыт», «вымыт», «зашита», «пришит»: the -ыт and -шит forms of short roots (мыть,
    // крыть, шить), with a prefix and three letters after it. (Not «-щит»: «защита» is
    // a protection.)
    let short_root = ["ыт", "ыта", "ыто", "ыты", "шит", "шита", "шито", "шиты"].iter().any(|e| token.ends_with(e));
    if short_root
        && token.chars().all(|c| matches!(c, 'а'..='я' | 'ё'))
        && VERB_PREFIXES.iter().any(|p| token.starts_with(p) && token.chars().count() >= p.chars().count() + 3)
        && token.chars().count() >= 5
    {
        return true;
    }
    let russian = token.chars().count() >= 6 && token.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
    if !russian {
        return false;
    }
    if ["ено", "ена", "ен", "ены", "ёно", "ёна", "ён", "ёны"].iter().any(|e| token.ends_with(e)) {
        return !is_first_name(token);
    }
    // «снята», «перетянута», «натянут»: the -т forms, with a prefix too (not «-ят», a
    // future «отправят», nor «-ота», «забота»). (The -ыт forms, «закрыт», are read above.)
    let an = ["ано", "ана", "ан", "аны", "яно", "яна", "ян", "яны"].iter().any(|e| token.ends_with(e))
        || ["ята", "ято", "яты", "ута", "уто", "уты", "ут"].iter().any(|e| token.ends_with(e));
    an && VERB_PREFIXES.iter().any(|p| token.starts_with(p) && token.chars().count() >= p.chars().count() + 4)
        && !is_first_name(token)
}

/// «Светланы», «Оксана», «Снежана», «Милена»: a first name the table knows ends like a
/// participle with a prefix («с-ветланы» as «с-деланы»), and is the name — «предоплату
/// Светланы проверить в пятницу» reports nothing done.
fn is_first_name(token: &str) -> bool {
    !tasks_text::names::name_groups(token).is_empty()
}

/// Short Russian participles (masculine; the others add «а», «о», «ы»): too short for
/// the ending rules of [`is_done_participle`].
pub(super) const SHORT_PARTICIPLES: &[&str] =
    &["сдан", "снят", "взят", "отдан", "продан", "выдан", "подан", "издан", "убран", "собран"];

/// Prefixes of perfective Russian verbs, longest first.
pub(super) const VERB_PREFIXES: &[&str] = &[
    "пере", "подо", "надо", "обо", "про", "при", "под", "над", "раз", "рас", "вы", "от", "на", "за", "до", "со", "по",
    "вз", "из", "ис", "об", "с", "у", "о",
];

/// A Russian infinitive (`купить`, `позвонить`, `сходить`) or an English task verb.
pub(super) fn is_task_verb(token: &str) -> bool {
    let n = token.chars().count();
    (n >= 4
        && token.chars().all(|c| matches!(c, 'а'..='я' | 'ё'))
        && ["ть", "ти", "чь", "ться", "чься"].iter().any(|e| token.ends_with(e)))
        || TASK_VERBS.contains(&token)
}
