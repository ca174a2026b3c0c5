//! Amounts of money in task text and in the CLI's `--amount` flag (SPEC §5.1 signature,
//! §10 `--amount "15000 RUB"`).
//!
//! Reads the notations people write in Russian, English and Spanish titles:
//! `15 000 ₽`, `15000 руб.`, `40к руб`, `85 т.р.`, `150 тыс.`, `2 млн рублей`, `1,5 млн`,
//! `800 р.`, `€120`, `120 €`, `1.500 €`, `1500 EUR`, `$2,400`, `$1,200.50`, `300 usd`,
//! `£300`, `15 mil euros`. Digit grouping is settled by [`normalize()`](crate::normalize::normalize)
//! first, so this module works on normalized tokens.
//!
//! Decisions:
//! - An amount needs a currency. A bare number (`12 мешков`, `24 icons`, `5000`) is not
//!   an amount; it stays a number token among the stems.
//! - A Russian magnitude word without a currency (`65к`, `150 тыс.`, `1,5 млн`) is an
//!   amount of [`Currency::Unstated`]: Russian speakers write any sum that way — rubles
//!   in Moscow, euros in Valencia, lari in Tbilisi — so the number is known and the
//!   currency is not (it used to be read as rubles, which made «апрельские 2.4к» a
//!   different amount from "2 400 $"). `т.р.` says "тысяч рублей" and stays rubles.
//!   Spanish speakers write sums the same way ("llegó de 41 mil", "sube a 400 mil"), so
//!   `mil` and `millones` alone make an unstated amount too. A Latin `65k` or "41
//!   thousand" without a currency is not an amount: in English it is as often users,
//!   records or kilometres.
//! - Spanish `mil` is a thousand (`15 mil euros` = 15 000 EUR), not a million.
//! - A country's adjective names its own currency: «300 белорусских рублей» is BYN,
//!   "Canadian dollars" and «канадских долларов» CAD, "pesos mexicanos" MXN; a country
//!   whose currency is not in [`Currency::ALL`] ("Australian dollars") makes no amount
//!   rather than the wrong one.
//! - A currency symbol or ISO code may stand before the number (`€120`, `USD 950`);
//!   currency words only after it (`800 р.`, `2 млн рублей`).
//!
//! What it deliberately does not do: no exchange rates, no ranges (`15 000–20 000 ₽` is
//! not read), no amounts written in words (`пять тысяч`).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use thiserror::Error;

use crate::normalize::normalize;

/// Minor units per major unit (kopecks per ruble, cents per dollar).
///
/// Every supported currency has two minor digits; a currency with a different exponent
/// (JPY has none) would need its own value here.
const MINOR_PER_MAJOR: i128 = 100;

/// A currency the duplicate check can tell apart: the ones of the places our users live
/// and work — Russia and Spain, and where Russian speakers have moved (Georgia, Armenia,
/// Serbia, Turkey, Israel, Kazakhstan, Central Asia, the Gulf, Thailand, Poland) — and
/// the Americas' main ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Currency {
    /// Russian ruble.
    Rub,
    /// US dollar.
    Usd,
    /// Euro.
    Eur,
    /// Pound sterling.
    Gbp,
    /// Swiss franc.
    Chf,
    /// Chinese yuan.
    Cny,
    /// Kazakhstani tenge.
    Kzt,
    /// Ukrainian hryvnia.
    Uah,
    /// Indian rupee.
    Inr,
    /// Georgian lari.
    Gel,
    /// Armenian dram.
    Amd,
    /// Serbian dinar.
    Rsd,
    /// Turkish lira.
    Try,
    /// Israeli new shekel.
    Ils,
    /// Azerbaijani manat.
    Azn,
    /// Kyrgyz som.
    Kgs,
    /// Uzbek sum.
    Uzs,
    /// Belarusian ruble.
    Byn,
    /// UAE dirham.
    Aed,
    /// Thai baht.
    Thb,
    /// Polish złoty.
    Pln,
    /// Canadian dollar.
    Cad,
    /// Mexican peso.
    Mxn,
    /// Argentine peso.
    Ars,
    /// A number written with a Russian or Spanish magnitude and no currency (`65к`,
    /// `150 тыс.`, `41 mil`):
    /// rubles in Moscow, euros in Valencia, lari in Tbilisi; or in pesos, which several
    /// countries call their currency. Its ISO 4217 code is `XXX`
    /// ("no currency"); the duplicate check compares it with any currency by the number.
    /// Not in [`Currency::ALL`]: nobody can write it, so `--amount` cannot name it.
    Unstated,
}

impl Currency {
    /// Every currency one can write, in declaration order.
    pub const ALL: [Currency; 24] = [
        Currency::Rub,
        Currency::Usd,
        Currency::Eur,
        Currency::Gbp,
        Currency::Chf,
        Currency::Cny,
        Currency::Kzt,
        Currency::Uah,
        Currency::Inr,
        Currency::Gel,
        Currency::Amd,
        Currency::Rsd,
        Currency::Try,
        Currency::Ils,
        Currency::Azn,
        Currency::Kgs,
        Currency::Uzs,
        Currency::Byn,
        Currency::Aed,
        Currency::Thb,
        Currency::Pln,
        Currency::Cad,
        Currency::Mxn,
        Currency::Ars,
    ];

    /// The code of [`Currency::Unstated`] (ISO 4217's "no currency").
    pub const UNSTATED_CODE: &'static str = "XXX";

    /// Returns the ISO 4217 code (`RUB`, `USD` …).
    pub fn code(self) -> &'static str {
        match self {
            Currency::Rub => "RUB",
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
            Currency::Gbp => "GBP",
            Currency::Chf => "CHF",
            Currency::Cny => "CNY",
            Currency::Kzt => "KZT",
            Currency::Uah => "UAH",
            Currency::Inr => "INR",
            Currency::Gel => "GEL",
            Currency::Amd => "AMD",
            Currency::Rsd => "RSD",
            Currency::Try => "TRY",
            Currency::Ils => "ILS",
            Currency::Azn => "AZN",
            Currency::Kgs => "KGS",
            Currency::Uzs => "UZS",
            Currency::Byn => "BYN",
            Currency::Aed => "AED",
            Currency::Thb => "THB",
            Currency::Pln => "PLN",
            Currency::Cad => "CAD",
            Currency::Mxn => "MXN",
            Currency::Ars => "ARS",
            Currency::Unstated => Currency::UNSTATED_CODE,
        }
    }

    /// Returns the currency for an ISO 4217 code, in any case.
    pub fn from_code(code: &str) -> Option<Currency> {
        Currency::ALL.into_iter().find(|c| c.code().eq_ignore_ascii_case(code))
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Currency {
    type Err = AmountError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Currency::from_code(s.trim()).ok_or_else(|| AmountError::UnknownCurrency { input: s.to_owned() })
    }
}

/// A sum of money in minor units of one currency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Amount {
    /// Minor units (kopecks, cents): `15000 ₽` is 1 500 000.
    pub minor: i64,
    /// The currency.
    pub currency: Currency,
}

impl fmt::Display for Amount {
    /// Formats as `15000 RUB` or `1200.50 USD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = MINOR_PER_MAJOR as i64;
        let (major, minor) = (self.minor / per, (self.minor % per).abs());
        if minor == 0 {
            write!(f, "{major} {}", self.currency)
        } else {
            write!(f, "{major}.{minor:02} {}", self.currency)
        }
    }
}

/// An amount found in normalized text, with the tokens it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmountMatch {
    /// The amount.
    pub amount: Amount,
    /// Indices of the tokens (`normalized.split(' ')`) that make up the amount phrase.
    pub tokens: Range<usize>,
}

/// Why an `--amount` value could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AmountError {
    /// The text is not a number with a currency.
    #[error("cannot read {input:?} as an amount")]
    Unreadable {
        /// The text as given.
        input: String,
    },
    /// A number was read but no currency.
    #[error("{input:?} has no currency")]
    NoCurrency {
        /// The text as given.
        input: String,
    },
    /// The amount is negative: a task's money is a sum to pay or be paid, never a sign
    /// that normalization would drop.
    #[error("{input:?} is negative; give the sum without a sign")]
    Negative {
        /// The text as given.
        input: String,
    },
    /// The number does not fit in 64-bit minor units.
    #[error("{input:?} is too large an amount")]
    TooLarge {
        /// The text as given.
        input: String,
    },
    /// Not a supported ISO 4217 code.
    #[error("unknown currency {input:?}")]
    UnknownCurrency {
        /// The text as given.
        input: String,
    },
}

impl AmountError {
    /// Returns a hint listing the accepted notations and every currency, for the CLI's
    /// `hint:` line.
    pub fn hint(&self) -> String {
        let codes: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
        format!(
            "write a number and a currency, e.g. \"15000 RUB\", \"15 000 ₽\", \"40к руб\", \"€120\", \
             \"1.500 EUR\", \"$2,400\", \"300 usd\"; currencies: {}",
            codes.join(" ")
        )
    }
}

/// Returns the amounts in `text`, in order, each once.
pub fn amounts(text: &str) -> Vec<Amount> {
    amounts_of_normalized(&normalize(text))
}

/// Like [`amounts`], on already normalized text (a profile has normalized its title
/// and description already; normalizing a long description twice was a fifth of its
/// cost).
pub fn amounts_of_normalized(normalized: &str) -> Vec<Amount> {
    let mut out: Vec<Amount> = Vec::new();
    for m in find_amounts(normalized) {
        if !out.contains(&m.amount) {
            out.push(m.amount);
        }
    }
    out
}

/// Returns every amount phrase in already normalized text, in order.
pub fn find_amounts(normalized: &str) -> Vec<AmountMatch> {
    let tokens: Vec<&str> = normalized.split(' ').filter(|t| !t.is_empty()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match read_at(&tokens, i, false) {
            Read::Amount(amount, end) => {
                out.push(AmountMatch { amount, tokens: i..end });
                i = end;
            }
            Read::NoCurrency(_) | Read::Overflow | Read::Nothing => i += 1,
        }
    }
    out
}

/// Parses the CLI's `--amount` value: one amount in any notation [`amounts`] reads, and
/// nothing else.
///
/// # Errors
/// [`AmountError::NoCurrency`] for a bare number, [`AmountError::TooLarge`] when it
/// overflows, [`AmountError::Unreadable`] otherwise; each quotes `input`.
pub fn parse_amount_flag(input: &str) -> Result<Amount, AmountError> {
    let signed = input.trim_start().trim_start_matches(|c: char| !c.is_ascii_digit() && !matches!(c, '-' | '−' | '–'));
    if signed.starts_with(['-', '−', '–']) {
        return Err(AmountError::Negative { input: input.to_owned() });
    }
    let normalized = normalize(input);
    let tokens: Vec<&str> = normalized.split(' ').filter(|t| !t.is_empty()).collect();
    let err = |make: fn(String) -> AmountError| make(input.to_owned());
    match read_at(&tokens, 0, true) {
        Read::Amount(amount, end) if end == tokens.len() && amount.currency == Currency::Unstated => {
            Err(err(|input| AmountError::NoCurrency { input }))
        }
        Read::Amount(amount, end) if end == tokens.len() => Ok(amount),
        Read::NoCurrency(end) if end == tokens.len() => Err(err(|input| AmountError::NoCurrency { input })),
        Read::Overflow => Err(err(|input| AmountError::TooLarge { input })),
        _ => Err(err(|input| AmountError::Unreadable { input })),
    }
}

/// What [`read_at`] found at one position.
enum Read {
    /// An amount and the index after its last token.
    Amount(Amount, usize),
    /// A number with no currency; the index after it.
    NoCurrency(usize),
    /// A number too large for minor units.
    Overflow,
    /// No number here.
    Nothing,
}

/// Where a currency token may stand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Symbols and ISO codes: before or after the number.
    Anywhere,
    /// Words (`руб`, `р`, `euros`): after the number only.
    After,
    /// ISO codes that are also words or brands (`amd`, `cad`, `gel`): in text only after
    /// a number of three digits or more, or with a fraction ("41,300 AMD", "86.40 GEL"),
    /// never after a small count ("2 AMD GPUs", "2 gel packs").
    AfterSum,
}

/// Returns true when a normalized token names a currency (`₽`, `usd`, `руб`, `euros` …).
pub(crate) fn is_currency_word(token: &str) -> bool {
    currency_token(token, false).is_some()
}

/// Returns the currency a normalized token names, and where it may stand.
///
/// ISO codes stand anywhere. The ones that are also words or brands stand anywhere only
/// in `--amount` (`in_flag`); in free text `amd`, `cad` and `gel` are read only after a
/// sum ([`Place::AfterSum`]: "2 AMD GPUs" is not two drams), and `try` and `kgs` never:
/// "1400 try {" is a line of code in a bug report, "20 kgs" kilograms (₺ and «лир»
/// still say lira).
fn currency_token(token: &str, in_flag: bool) -> Option<(Currency, Place)> {
    use Currency::*;
    use Place::*;
    Some(match token {
        "₽" => (Rub, Anywhere),
        "$" => (Usd, Anywhere),
        "€" => (Eur, Anywhere),
        "£" => (Gbp, Anywhere),
        "₸" => (Kzt, Anywhere),
        "₴" => (Uah, Anywhere),
        "₹" => (Inr, Anywhere),
        "₾" => (Gel, Anywhere),
        "₺" => (Try, Anywhere),
        "₪" => (Ils, Anywhere),
        "₼" => (Azn, Anywhere),
        "rur" => (Rub, Anywhere),
        "kgs" | "try" if !in_flag => return None,
        "amd" | "cad" | "gel" if !in_flag => (Currency::from_code(token)?, AfterSum),
        "руб" | "рубль" | "рубля" | "рублей" | "р" => (Rub, After),
        "доллар" | "доллара" | "долларов" | "долл" | "бакс" | "бакса" | "баксов" => {
            (Usd, After)
        }
        "dollar" | "dollars" | "bucks" | "dolar" | "dolares" => (Usd, After),
        "евро" | "euro" | "euros" => (Eur, After),
        "тенге" => (Kzt, After),
        "грн" | "гривна" | "гривны" | "гривен" => (Uah, After),
        "юань" | "юаня" | "юаней" | "yuan" => (Cny, After),
        "франк" | "франка" | "франков" => (Chf, After),
        "лари" | "lari" => (Gel, After),
        "драм" | "драмов" | "dram" | "drams" => (Amd, After),
        "динар" | "динара" | "динаров" | "dinar" | "dinars" | "dinares" => (Rsd, After),
        "лира" | "лиры" | "лир" | "lira" | "liras" => (Try, After),
        "шекель" | "шекеля" | "шекелей" | "shekel" | "shekels" | "nis" => (Ils, After),
        "манат" | "маната" | "манатов" | "manat" | "manats" => (Azn, After),
        "сом" | "сома" | "сомов" | "som" => (Kgs, After),
        "сум" | "сума" | "сумов" => (Uzs, After),
        "дирхам" | "дирхама" | "дирхамов" | "dirham" | "dirhams" => (Aed, After),
        "бат" | "бата" | "батов" | "baht" => (Thb, After),
        // `zł` is normalized to `zl` (ł folds to l).
        "zl" | "злотый" | "злотых" | "злотого" | "zloty" | "zlotys" => (Pln, After),
        // Pesos of several countries: the number is known, the currency is not.
        "песо" | "peso" | "pesos" => (Unstated, After),
        code => (Currency::from_code(code)?, Anywhere),
    })
}

/// A country whose adjective makes a currency word name its own currency («белорусских
/// рублей», "Canadian dollars", "pesos mexicanos").
#[derive(Clone, Copy)]
enum Country {
    Russia,
    Belarus,
    Canada,
    Mexico,
    Argentina,
    UnitedStates,
    /// A country with a dollar or a peso we do not tell apart (Australia, Chile …).
    Other,
}

impl Country {
    /// The currency `word_currency` (what the word alone reads as) names in this
    /// country: `None` for a country whose currency we do not tell apart; the word's
    /// own currency when the adjective does not go with it («канадских рублей»).
    fn currency_named(self, word_currency: Currency) -> Option<Currency> {
        use Currency::*;
        Some(match (self, word_currency) {
            (Country::Other, _) => return None,
            (Country::Belarus, Rub) => Byn,
            (Country::Canada, Usd) => Cad,
            (Country::Mexico, Unstated) => Mxn,
            (Country::Argentina, Unstated) => Ars,
            (_, c) => c,
        })
    }
}

/// Adjectives that stand before the currency word, as Russian and English put them
/// («белорусских рублей», "Canadian dollars"): a prefix, any case ending.
const COUNTRY_BEFORE: &[(&str, Country)] = &[
    ("российск", Country::Russia),
    ("russian", Country::Russia),
    ("белорусск", Country::Belarus),
    ("belarusian", Country::Belarus),
    ("канадск", Country::Canada),
    ("canadian", Country::Canada),
    ("мексиканск", Country::Mexico),
    ("mexican", Country::Mexico),
    ("аргентинск", Country::Argentina),
    ("argentin", Country::Argentina),
    ("американск", Country::UnitedStates),
    ("american", Country::UnitedStates),
    ("австралийск", Country::Other),
    ("australian", Country::Other),
    ("новозеландск", Country::Other),
    ("гонконгск", Country::Other),
    ("сингапурск", Country::Other),
    ("singapore", Country::Other),
    ("тайваньск", Country::Other),
    ("taiwan", Country::Other),
    ("ямайск", Country::Other),
    ("jamaican", Country::Other),
    ("чилийск", Country::Other),
    ("chilean", Country::Other),
    ("колумбийск", Country::Other),
    ("colombian", Country::Other),
];

/// Adjectives that follow the currency word, as Spanish puts them ("pesos mexicanos",
/// "dólares canadienses"): a stem and a Spanish ending. Russian and English adjectives
/// after the word belong to the next noun («500 долларов канадскому подрядчику»).
const COUNTRY_AFTER: &[(&str, Country)] = &[
    ("rus", Country::Russia),
    ("bielorrus", Country::Belarus),
    ("canadiens", Country::Canada),
    ("mexican", Country::Mexico),
    ("argentin", Country::Argentina),
    ("estadounidens", Country::UnitedStates),
    ("american", Country::UnitedStates),
    ("australian", Country::Other),
    ("neozelandes", Country::Other),
    ("hongkones", Country::Other),
    ("singapurens", Country::Other),
    ("taiwanes", Country::Other),
    ("jamaican", Country::Other),
    ("chilen", Country::Other),
    ("colombian", Country::Other),
];

/// Returns the country an adjective before a currency word names.
fn country_before(token: &str) -> Option<Country> {
    if token == "us" {
        return Some(Country::UnitedStates);
    }
    COUNTRY_BEFORE.iter().find(|(prefix, _)| token.starts_with(prefix)).map(|(_, c)| *c)
}

/// Returns the country a Spanish adjective after a currency word names.
fn country_after(token: &str) -> Option<Country> {
    COUNTRY_AFTER
        .iter()
        .find(|(stem, _)| {
            token.strip_prefix(stem).is_some_and(|ending| ["o", "os", "a", "as", "e", "es"].contains(&ending))
        })
        .map(|(_, c)| *c)
}

/// A multiplier written after a number.
#[derive(Clone, Copy)]
struct Magnitude {
    /// The multiplier.
    factor: i128,
    /// Whether it makes a sum of an unstated currency when none is written.
    alone: Alone,
}

/// Whether a magnitude with no currency written is a sum.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Alone {
    /// Russian «65к», «150 тыс.»: money whatever follows.
    Sum,
    /// Spanish `mil`, `millones`: money unless a content word follows ("llegó de 41
    /// mil" is a bill; "12 mil personas", "2 mil views" are counts).
    SumUnlessAWordFollows,
    /// English `k`, `thousand`, `million`, and a Latin suffix glued to the number
    /// ("65k users", "6mil" film): never alone.
    Never,
}

/// Returns the magnitude a normalized word names when it stands as its own token.
///
/// `к`/`k` are left out: standing alone they are read only before a currency (see
/// [`read_at`]), since a lone `к` is usually the preposition.
fn magnitude_word(token: &str) -> Option<Magnitude> {
    let (factor, alone) = match token {
        "тыс" | "тысяч" | "тысячи" | "тысяча" | "тр" => (1_000, Alone::Sum),
        "млн" | "миллион" | "миллиона" | "миллионов" => (1_000_000, Alone::Sum),
        "млрд" => (1_000_000_000, Alone::Sum),
        "mil" => (1_000, Alone::SumUnlessAWordFollows),
        "millon" | "millones" => (1_000_000, Alone::SumUnlessAWordFollows),
        "thousand" => (1_000, Alone::Never),
        "mln" | "million" | "millions" => (1_000_000, Alone::Never),
        _ => return None,
    };
    Some(Magnitude { factor, alone })
}

/// Returns the magnitude a suffix glued to a number names (`40к`, `65k`, `1.5m`).
fn magnitude_suffix(suffix: &str) -> Option<Magnitude> {
    match suffix {
        "к" => Some(Magnitude { factor: 1_000, alone: Alone::Sum }),
        "k" => Some(Magnitude { factor: 1_000, alone: Alone::Never }),
        "m" => Some(Magnitude { factor: 1_000_000, alone: Alone::Never }),
        // A Latin word glued to the number is no Spanish sum alone ("6mil").
        _ => magnitude_word(suffix).map(|m| match m.alone {
            Alone::SumUnlessAWordFollows => Magnitude { alone: Alone::Never, ..m },
            _ => m,
        }),
    }
}

/// A number token split into digits and what is glued after them.
struct NumberToken<'a> {
    /// Integer digits.
    integer: &'a str,
    /// Fraction digits (may be empty).
    fraction: &'a str,
    /// Letters glued after the digits (`к` in `40к`); may be empty.
    suffix: &'a str,
}

/// Splits a token like `1200.50`, `40к` or `800р` into its parts.
fn number_token(token: &str) -> Option<NumberToken<'_>> {
    let digits_end = token.find(|c: char| !c.is_ascii_digit()).unwrap_or(token.len());
    if digits_end == 0 {
        return None;
    }
    let integer = &token[..digits_end];
    let mut rest = &token[digits_end..];
    let mut fraction = "";
    if let Some(after_dot) = rest.strip_prefix('.') {
        let frac_end = after_dot.find(|c: char| !c.is_ascii_digit()).unwrap_or(after_dot.len());
        if frac_end == 0 {
            return None;
        }
        fraction = &after_dot[..frac_end];
        rest = &after_dot[frac_end..];
    }
    if !rest.chars().all(char::is_alphabetic) {
        return None;
    }
    Some(NumberToken { integer, fraction, suffix: rest })
}

/// Returns `integer.fraction × factor` in minor units, rounded half up, or `None` on
/// overflow.
fn to_minor(integer: &str, fraction: &str, factor: i128) -> Option<i64> {
    let int: i128 = integer.parse().ok()?;
    let frac: i128 = if fraction.is_empty() { 0 } else { fraction.parse().ok()? };
    let scale = 10i128.checked_pow(u32::try_from(fraction.len()).ok()?)?;
    let numerator = int.checked_mul(scale)?.checked_add(frac)?.checked_mul(factor)?.checked_mul(MINOR_PER_MAJOR)?;
    let minor = numerator.checked_add(scale / 2)? / scale;
    i64::try_from(minor).ok()
}

/// Reads an amount phrase starting at token `i`.
fn read_at(tokens: &[&str], i: usize, in_flag: bool) -> Read {
    let Some(&first) = tokens.get(i) else {
        return Read::Nothing;
    };
    // A symbol or code before the number: `€ 120`, `usd 950`. A dollar sign is the US
    // dollar unless a country's letters stand before it (`C$`, `MX$` normalize to
    // `c $`, `mx $`) or a code follows the number (`$18,450.00 MXN`).
    let mut before = None;
    let mut at = i;
    let dollar_sign = first == "$";
    if let Some((currency, Place::Anywhere)) = currency_token(first, in_flag) {
        let country = i.checked_sub(1).and_then(|p| tokens.get(p)).copied();
        before = Some(match (dollar_sign, country) {
            (true, Some("c" | "ca")) => Currency::Cad,
            (true, Some("mx")) => Currency::Mxn,
            (true, Some("ar")) => Currency::Ars,
            _ => currency,
        });
        at = i + 1;
    }
    let Some(number) = tokens.get(at).and_then(|t| number_token(t)) else {
        return Read::Nothing;
    };
    at += 1;

    let mut magnitude = None;
    let mut glued_currency = None;
    if !number.suffix.is_empty() {
        if let Some(m) = magnitude_suffix(number.suffix) {
            magnitude = Some(m);
        } else if number.suffix == "т" && tokens.get(at) == Some(&"р") {
            // `85т.р.` normalizes to `85т р`: thousands of rubles.
            magnitude = magnitude_word("тр");
            glued_currency = Some(Currency::Rub);
            at += 1;
        } else if let Some((currency, _)) = currency_token(number.suffix, in_flag) {
            glued_currency = Some(currency);
        } else {
            return Read::Nothing;
        }
    }
    if magnitude.is_none() && glued_currency.is_none() {
        let next = tokens.get(at).copied();
        let after_next = tokens.get(at + 1).copied();
        if let Some(m) = next.and_then(magnitude_word) {
            magnitude = Some(m);
            at += 1;
            if next == Some("тр") {
                glued_currency = Some(Currency::Rub);
            }
            // "3 mil millones": a thousand millions.
            if next == Some("mil") && matches!(tokens.get(at), Some(&("millones" | "millon"))) {
                magnitude = Some(Magnitude { factor: 1_000_000_000, alone: Alone::SumUnlessAWordFollows });
                at += 1;
            }
        } else if next == Some("т") && after_next == Some("р") {
            magnitude = magnitude_word("тр");
            glued_currency = Some(Currency::Rub);
            at += 2;
        } else if matches!(next, Some("к" | "k")) && after_next.and_then(|t| currency_token(t, in_flag)).is_some() {
            magnitude = magnitude_suffix(next.unwrap_or_default());
            at += 1;
        }
    }
    // "2 millones de euros": Spanish puts `de` between the magnitude and the currency.
    if magnitude.is_some()
        && tokens.get(at) == Some(&"de")
        && tokens.get(at + 1).and_then(|t| currency_token(t, in_flag)).is_some()
    {
        at += 1;
    }
    let mut after = glued_currency;
    let sum = number.integer.len() >= 3 || !number.fraction.is_empty() || magnitude.is_some();
    // A country's adjective before the currency word: «300 белорусских рублей», "1,900
    // Canadian dollars".
    let mut country = None;
    if after.is_none()
        && (before.is_none() || dollar_sign)
        && let Some(c) = tokens.get(at).and_then(|t| country_before(t))
        && tokens.get(at + 1).and_then(|t| currency_token(t, in_flag)).is_some()
    {
        country = Some(c);
        at += 1;
    }
    if after.is_none()
        && let Some((currency, place)) = tokens.get(at).and_then(|t| currency_token(t, in_flag))
        && (place != Place::AfterSum || sum)
        && (before.is_none() || before == Some(currency) || dollar_sign)
    {
        after = Some(currency);
        at += 1;
        // … or after it: "18 450 pesos mexicanos", "dólares canadienses".
        if country.is_none()
            && let Some(c) = tokens.get(at).and_then(|t| country_after(t))
        {
            country = Some(c);
            at += 1;
        }
    }
    if let (Some(country), Some(currency)) = (country, after) {
        match country.currency_named(currency) {
            Some(c) => after = Some(c),
            // Australian dollars, Chilean pesos: a currency we do not tell apart, not
            // the one the word alone names.
            None => return Read::NoCurrency(at),
        }
    }
    let currency = match (before, after, magnitude) {
        (Some(_), Some(c), _) if dollar_sign => c,
        (Some(c), _, _) | (None, Some(c), _) => c,
        (None, None, Some(m)) if m.alone == Alone::Sum => Currency::Unstated,
        (None, None, Some(m))
            if m.alone == Alone::SumUnlessAWordFollows
                && !tokens
                    .get(at)
                    .is_some_and(|t| t.chars().any(char::is_alphabetic) && !crate::stems::is_stop_word(t)) =>
        {
            Currency::Unstated
        }
        _ => return Read::NoCurrency(at),
    };
    let factor = magnitude.map_or(1, |m| m.factor);
    match to_minor(number.integer, number.fraction, factor) {
        Some(minor) => Read::Amount(Amount { minor, currency }, at),
        None => Read::Overflow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rub(major: i64) -> Amount {
        Amount { minor: major * 100, currency: Currency::Rub }
    }

    fn check(input: &str, expected: &[&str]) {
        let got: Vec<String> = amounts(input).iter().map(Amount::to_string).collect();
        assert_eq!(got, expected, "amounts({input:?})");
    }

    fn check_flag(input: &str, expected: Result<&str, &str>) {
        let got = parse_amount_flag(input).map(|a| a.to_string()).map_err(|e| e.to_string());
        assert_eq!(got, expected.map(str::to_owned).map_err(str::to_owned), "parse_amount_flag({input:?})");
    }

    #[test]
    fn russian_notations() {
        check("Счёт на 15 000 ₽", &["15000 RUB"]);
        check("Выставить счёт на 28 000 руб. за баннеры", &["28000 RUB"]);
        check("Счет за вывеску 60000 руб", &["60000 RUB"]);
        check("Ad placement, 15000 RUB", &["15000 RUB"]);
        check("40к руб", &["40000 RUB"]);
        check("40 к руб", &["40000 RUB"]);
        check("Аренда за июнь, 65к — перевести", &["65000 XXX"]);
        check("Аванс за электромонтаж — 85 т.р.", &["85000 RUB"]);
        check("85т.р.", &["85000 RUB"]);
        check("85 тр", &["85000 RUB"]);
        check("предоплата 150 тыс. до пятницы", &["150000 XXX"]);
        check("2 млн рублей", &["2000000 RUB"]);
        check("1,5 млн", &["1500000 XXX"]);
        check("Сдать по 800 р. на подарок", &["800 RUB"]);
        check("800р", &["800 RUB"]);
        check("₽15000", &["15000 RUB"]);
        check("Вернуть 7000 рублей", &["7000 RUB"]);
        check("5 000,50 ₽", &["5000.50 RUB"]);
    }

    #[test]
    fn euro_dollar_pound() {
        check("Pay Paula €120 for the illustration", &["120 EUR"]);
        check("Pagar a Paula 120 € por PayPal", &["120 EUR"]);
        check("Enviar factura del anticipo (1.500 €)", &["1500 EUR"]);
        check("factura anticipo 1500 EUR — ¿hoy?", &["1500 EUR"]);
        check("Enviar la factura final — 2.500 €", &["2500 EUR"]);
        check("2500 EUR", &["2500 EUR"]);
        check("15 mil euros", &["15000 EUR"]);
        check("100 евро", &["100 EUR"]);
        check("Invoice — $2,400", &["2400 USD"]);
        check("nibs ($40)", &["40 USD"]);
        check("$1,200.50", &["1200.50 USD"]);
        check("Invoice for the hero, 950 USD", &["950 USD"]);
        check("license (300 usd)", &["300 USD"]);
        check("£300", &["300 GBP"]);
        check("$65k", &["65000 USD"]);
        check("USD 950", &["950 USD"]);
        check("$ 100 usd", &["100 USD"]);
        check("24 icons x $65", &["65 USD"]);
        check("Renew Figma ($15/mo)", &["15 USD"]);
        check("500 долларов", &["500 USD"]);
    }

    /// The European notations of issue 16: a dot or comma before exactly three digits is
    /// a thousands separator, a comma before two is the decimal mark.
    #[test]
    fn european_notations() {
        check("2.350 €", &["2350 EUR"]);
        check("€2,350", &["2350 EUR"]);
        check("1.450,00 EUR", &["1450 EUR"]);
        check("Factura luz 96,40 €", &["96.40 EUR"]);
        check("за свет 96 евро", &["96 EUR"]);
        check("US$ 1.500", &["1500 USD"]);
        check("12.400 $", &["12400 USD"]);
        check("$12,400", &["12400 USD"]);
        check("1 450,00 ₽", &["1450 RUB"]);
        check("0,99 €", &["0.99 EUR"]);
    }

    /// Where our users live and work: lari, dram, dinar, lira, shekel, manat, som, sum,
    /// dirham, baht, złoty, and the Americas' dollars and pesos, by symbol, code and word.
    #[test]
    fn currencies_of_the_places_users_move_to() {
        check("TbilEnergy: electricity for April — 86,40 ₾", &["86.40 GEL"]);
        check("Оплатить свет — 86 лари", &["86 GEL"]);
        check("Loft 42: prepay 1 350 ₾", &["1350 GEL"]);
        check("Сдать 40 лари на экскурсию", &["40 GEL"]);
        check("Аренда 250 000 драмов", &["250000 AMD"]);
        check("Kirija 60.000 RSD", &["60000 RSD"]);
        check("2.500 динаров за интернет", &["2500 RSD"]);
        check("Depozito 15.000 ₺", &["15000 TRY"]);
        check("150 лир за такси", &["150 TRY"]);
        check("₪ 4,200", &["4200 ILS"]);
        check("арнона 600 шекелей", &["600 ILS"]);
        check("Bakı: 80 ₼", &["80 AZN"]);
        check("5000 сомов за квартиру", &["5000 KGS"]);
        check("перевести 300 000 сумов", &["300000 UZS"]);
        check("Visa run, 250 AED", &["250 AED"]);
        check("1 200 дирхамов", &["1200 AED"]);
        check("Condo 18,000 THB", &["18000 THB"]);
        check("Массаж 400 бат", &["400 THB"]);
        check("Czynsz 3200 zł", &["3200 PLN"]);
        check("Alquiler 12.000 MXN", &["12000 MXN"]);
        check("Expensas ARS 85.000", &["85000 ARS"]);
        check("BYN 300", &["300 BYN"]);
        check("Pago a proveedor: $18,450.00 MXN", &["18450 MXN"]);
        check("C$ 1,900 rent", &["1900 CAD"]);
        check("MX$18,450", &["18450 MXN"]);
        check("US$ 1.500", &["1500 USD"]);
        check("$1,200 a month", &["1200 USD"]);
        check("18 450 pesos", &["18450 XXX"]);
        // A country's adjective names its own currency, before or after the word.
        check("Сдать 300 белорусских рублей", &["300 BYN"]);
        check("1,900 Canadian dollars", &["1900 CAD"]);
        check("2 000 канадских долларов", &["2000 CAD"]);
        check("1.900 dolares canadienses", &["1900 CAD"]);
        check("18 450 pesos mexicanos", &["18450 MXN"]);
        check("85.000 pesos argentinos", &["85000 ARS"]);
        check("500 американских долларов", &["500 USD"]);
        check("5000 российских рублей", &["5000 RUB"]);
        check("300 US dollars", &["300 USD"]);
        check("$300 Canadian dollars", &["300 CAD"]);
        // A country whose currency we do not tell apart: no amount, not the wrong one.
        check("300 australian dollars", &[]);
        check("$300 australian dollars", &[]);
        check("20.000 pesos chilenos", &[]);
        check("500 dolares neozelandeses", &[]);
        check("500 dolares hongkoneses", &[]);
        // An adjective after the word in Russian or English belongs to the next noun.
        check("Перевести 500 долларов канадскому подрядчику", &["500 USD"]);
        check("1000 рублей белорусскому", &["1000 RUB"]);
        check("1000 рублей американскому другу", &["1000 RUB"]);
        check("Send 500 dollars canadian friend", &["500 USD"]);
        // An adjective that does not go with the word leaves the word's currency.
        check("300 канадских рублей", &["300 RUB"]);
    }

    /// Spanish writes a sum without a currency as Russian does («65к»): "llegó de 41
    /// mil". English "41 thousand" and "65k" are not sums on their own.
    #[test]
    fn spanish_magnitudes_alone_are_sums_of_an_unstated_currency() {
        check("¿Ya pagaste el gas? llegó de 41 mil", &["41000 XXX"]);
        check("Revisar el contrato (sube a 400 mil)", &["400000 XXX"]);
        check("400 mil al mes", &["400000 XXX"]);
        check("1,5 millones", &["1500000 XXX"]);
        check("15 mil euros", &["15000 EUR"]);
        check("2 millones de euros", &["2000000 EUR"]);
        check("3 mil millones de pesos", &["3000000000 XXX"]);
        check("3 mil millones", &["3000000000 XXX"]);
        // A content word after it makes a count, not a sum.
        check("12 mil personas", &[]);
        check("2 mil views", &[]);
        check("5 mil km", &[]);
        // Glued to the number it is no Spanish sum ("6mil" film), nor English k alone.
        check("6mil poly", &[]);
        check("65k users", &[]);
        check("41 thousand", &[]);
        // Russian magnitudes stay sums whatever follows.
        check("65к перевести Арсену", &["65000 XXX"]);
    }

    /// Codes that are also words or brands count only after a sum (three digits or
    /// more, or a fraction), never after a small count; `kgs` is kilograms in text.
    #[test]
    fn codes_that_are_words_count_only_after_a_sum() {
        check("try 3 times", &[]);
        check("AMD 7800 benchmark", &[]);
        check("Install CAD 2024", &[]);
        check("gel 200 ml", &[]);
        check("3. Open the help\n4. Try links", &[]);
        check("2 AMD GPUs, 3 CAD files, 2 gel packs", &[]);
        check("300 лари", &["300 GEL"]);
        check("Electricity 41,300 AMD (January)", &["41300 AMD"]);
        check("TbilEnergy 86.40 GEL", &["86.40 GEL"]);
        check("Rent 1,900 CAD", &["1900 CAD"]);
        check("20 kgs of green coffee, 1500 kgs next month", &[]);
        check("line 1400:   try {", &[]);
        check("AMD 41300", &[]);
        check("Ryzen for 300 USD, not AMD", &["300 USD"]);
    }

    /// A Russian magnitude without a currency is a number of an unstated currency, which
    /// nobody can write: `--amount` still asks for one, and the hint names every currency.
    #[test]
    fn an_unstated_currency_is_read_from_text_only() {
        check("Даша спрашивает, где апрельские 2.4к", &["2400 XXX"]);
        check("кинуться маме на подарок — по 10к", &["10000 XXX"]);
        check("Закинуть 31,5к евро на счёт", &["31500 EUR"]);
        check("85 т.р.", &["85000 RUB"]);
        assert_eq!(Currency::from_code("XXX"), None);
        check_flag("100 XXX", Err("cannot read \"100 XXX\" as an amount"));
        let hint = AmountError::NoCurrency { input: String::new() }.hint();
        for c in Currency::ALL {
            assert!(hint.contains(c.code()), "{hint} lacks {c}");
        }
    }

    #[test]
    fn not_amounts() {
        check("Купить клей — 12 мешков", &[]);
        check("Перевести Кате 5000 на подарок", &[]);
        check("65k followers", &[]);
        check("до 10.04", &[]);
        check("сдать 40 к пятнице", &[]);
        check("Оплатить счёт № 4471 — 63 240 ₽", &["63240 RUB"]);
        check("x5 2a 8ben", &[]);
        check("15 000 ₽ и 15000 руб", &["15000 RUB"]);
        check("100 € и 100 $", &["100 EUR", "100 USD"]);
    }

    #[test]
    fn flag() {
        check_flag("15000 RUB", Ok("15000 RUB"));
        check_flag("15 000 ₽", Ok("15000 RUB"));
        check_flag("€120", Ok("120 EUR"));
        check_flag("1.500 EUR", Ok("1500 EUR"));
        check_flag("$1,200.50", Ok("1200.50 USD"));
        check_flag("40к", Err("\"40к\" has no currency"));
        check_flag("40к руб", Ok("40000 RUB"));
        check_flag("usd 300", Ok("300 USD"));
        check_flag("0.5 usd", Ok("0.50 USD"));
        check_flag("300 TRY", Ok("300 TRY"));
        check_flag("GEL 86.40", Ok("86.40 GEL"));
        check_flag("250000 amd", Ok("250000 AMD"));
        check_flag("1900 CAD", Ok("1900 CAD"));
        check_flag("20 kgs", Ok("20 KGS"));
        check_flag("15000", Err("\"15000\" has no currency"));
        check_flag("fifteen rub", Err("cannot read \"fifteen rub\" as an amount"));
        check_flag("15000 RUB please", Err("cannot read \"15000 RUB please\" as an amount"));
        check_flag("", Err("cannot read \"\" as an amount"));
        check_flag("99999999999999999999 RUB", Err("\"99999999999999999999 RUB\" is too large an amount"));
    }

    #[test]
    fn matches_report_tokens() {
        let got = find_amounts(&normalize("Счёт на 15 000 ₽ до пятницы"));
        assert_eq!(got, [AmountMatch { amount: rub(15000), tokens: 2..4 }]);
    }

    #[test]
    fn currency_codes() {
        for c in Currency::ALL {
            assert_eq!(c.code().parse::<Currency>(), Ok(c));
            assert_eq!(c.code().to_lowercase().parse::<Currency>(), Ok(c));
        }
        assert!("XXX".parse::<Currency>().is_err());
    }

    #[test]
    fn display() {
        assert_eq!(rub(15000).to_string(), "15000 RUB");
        let cents = Amount { minor: 120_050, currency: Currency::Usd };
        assert_eq!(cents.to_string(), "1200.50 USD");
    }

    #[test]
    fn a_negative_flag_is_refused_not_flipped() {
        for input in ["-50 EUR", "EUR -50", "€-50", "−1 200 ₽", "– 5 usd"] {
            assert!(matches!(parse_amount_flag(input), Err(AmountError::Negative { .. })), "{input}");
        }
        assert!(parse_amount_flag("50 EUR").is_ok());
    }
}
