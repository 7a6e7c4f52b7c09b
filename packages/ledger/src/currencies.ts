/**
 * The currencies an account may be in: the ISO 4217 codes of currencies in
 * use or recently retired, as Node 20.20.2 (ICU 78.2) knew them when
 * this list was written (162 codes). Kept here rather than asked of the
 * running Node, whose ICU data differs between builds and versions: a currency
 * one instance takes, every instance takes, whatever Node it runs on. Precious
 * metals (XAU), funds (CLF) and the testing codes (XTS, XXX) are not
 * currencies here.
 */
export const CURRENCIES: readonly string[] = `
  AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL
  BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD
  EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR
  ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR
  LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO
  NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG
  SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD
  TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF XSU YER ZAR ZMW
  ZWG ZWL
`
  .trim()
  .split(/\s+/);
