import type { Occupation } from "./occupations.ts";

/** Information and cyber security. */
export const SECURITY: Occupation[] = [
  {
    id: "security-engineer",
    titles: ["Security Engineer", "Cybersecurity Engineer", "Information Security Engineer", "InfoSec Engineer", "Cyber Security Specialist", "信息安全工程师", "网络安全工程师", "安全工程师", "安全开发工程师"],
    phrases: ["protect systems from hackers", "keep company networks safe from attacks", "build security controls and tools", "harden servers and cloud accounts", "keep hackers out", "protect customer data from breaches", "secure the company's servers and apps", "stop cyber attacks", "make our product and infrastructure secure", "fix security holes in systems", "build defenses against malware and phishing"],
    skills: ["network security", "siem", "firewalls", "cloud security", "python", "vulnerability management", "identity and access management"],
  },
  {
    id: "security-analyst",
    titles: ["Security Analyst", "SOC Analyst", "Cybersecurity Analyst", "Information Security Analyst", "Security Operations Analyst", "安全分析师", "安全运营工程师"],
    phrases: ["watch for cyber attacks", "investigate security alerts", "monitor networks for intruders", "triage suspicious activity in logs", "watch security dashboards for threats", "work in a security operations center", "look into suspicious logins", "respond to security alerts around the clock"],
    skills: ["siem", "splunk", "incident response", "threat detection", "edr", "wireshark", "log analysis"],
  },
  {
    id: "penetration-tester",
    titles: ["Penetration Tester", "Pentester", "Ethical Hacker", "Offensive Security Engineer", "Red Team Operator", "渗透测试工程师", "渗透测试", "白帽子"],
    phrases: ["hack into systems to find weaknesses", "break into networks legally", "test how secure systems are by attacking them", "find vulnerabilities before criminals do", "get paid to hack", "hack into apps to find security bugs", "do security testing for clients", "try to break into apps and networks", "find holes in web apps"],
    skills: ["penetration testing", "burp suite", "metasploit", "kali linux", "nmap", "oscp", "web application security", "social engineering"],
  },
  {
    id: "application-security-engineer",
    titles: ["Application Security Engineer", "AppSec Engineer", "Product Security Engineer", "DevSecOps Engineer", "Software Security Engineer", "应用安全工程师"],
    phrases: ["find security bugs in code", "review code for vulnerabilities", "make software secure by design", "add security checks to build pipelines", "secure web and mobile applications", "teach developers to write secure code", "run security scans on code", "fix vulnerabilities in web apps"],
    skills: ["application security", "owasp top 10", "sast", "dast", "threat modeling", "secure code review", "burp suite", "dependency scanning"],
  },
  {
    id: "cloud-security-engineer",
    titles: ["Cloud Security Engineer", "Cloud Security Architect", "Cloud Security Specialist", "云安全工程师"],
    phrases: ["secure aws and azure accounts", "protect data in the cloud", "lock down cloud permissions and networks", "secure kubernetes and cloud workloads", "keep cloud data private and safe", "secure aws accounts and s3 buckets", "set up cloud security monitoring", "review cloud permissions"],
    skills: ["aws security", "iam", "cspm", "kubernetes security", "terraform", "zero trust"],
  },
  {
    id: "security-architect",
    titles: ["Security Architect", "Cybersecurity Architect", "Information Security Architect", "安全架构师"],
    phrases: ["design secure systems for the whole company", "plan security architecture and standards", "review new systems for security risks", "decide how to keep systems secure", "design defenses for the company's network", "design identity and network security", "set security standards for engineering", "build a zero trust architecture"],
    skills: ["zero trust", "network security", "iam", "cloud security", "threat modeling", "nist"],
  },
  {
    id: "ciso",
    titles: ["Chief Information Security Officer", "CISO", "Head of Security", "Director of Security", "VP of Security", "首席信息安全官", "安全总监"],
    phrases: ["lead the company's security program", "report cyber risk to the board", "build and manage a security team", "be in charge of cybersecurity", "keep the company safe from cyber threats", "run the security department", "manage security budgets and risk", "set security strategy for the company"],
    skills: ["security strategy", "risk management", "iso 27001", "nist", "compliance", "leadership"],
  },
  {
    id: "incident-responder",
    titles: ["Incident Response Analyst", "Incident Responder", "DFIR Analyst", "Incident Response Engineer", "应急响应工程师"],
    phrases: ["respond when hackers break in", "contain and clean up cyber attacks", "investigate breaches and ransomware", "stop attacks in progress", "recover systems after a hack", "investigate data breaches", "handle ransomware attacks", "lead response when systems are hacked"],
    skills: ["incident response", "digital forensics", "edr", "malware analysis", "siem", "volatility"],
  },
  {
    id: "digital-forensics-examiner",
    titles: ["Digital Forensics Examiner", "Computer Forensics Analyst", "Digital Forensics Investigator", "电子取证分析师"],
    phrases: ["recover evidence from computers and phones", "investigate cyber crimes", "examine hard drives for legal cases", "find digital evidence for investigations", "analyze phones and laptops for evidence", "assist police with computer evidence", "recover deleted files for investigations", "write forensic reports for court"],
    skills: ["encase", "ftk", "autopsy", "chain of custody", "mobile forensics", "report writing"],
  },
  {
    id: "threat-intelligence-analyst",
    titles: ["Threat Intelligence Analyst", "Cyber Threat Intelligence Analyst", "CTI Analyst", "Threat Hunter", "威胁情报分析师"],
    phrases: ["track hacker groups and their methods", "research cyber threats", "hunt for attackers hiding in networks", "write reports on new cyber threats", "monitor the dark web for threats", "study attacker tactics", "warn the company about new attacks", "track ransomware gangs"],
    skills: ["mitre att&ck", "osint", "threat hunting", "misp", "malware analysis", "intelligence reporting"],
  },
  {
    id: "malware-analyst",
    titles: ["Malware Analyst", "Reverse Engineer", "Malware Researcher", "Vulnerability Researcher", "逆向工程师", "安全研究员"],
    phrases: ["take apart viruses to see how they work", "reverse engineer malicious software", "find new security holes in software", "study viruses and ransomware", "find exploits in software", "analyze malicious code", "reverse engineer binaries", "write detection signatures for malware"],
    skills: ["ida pro", "ghidra", "assembly", "x64dbg", "malware analysis", "yara", "fuzzing"],
  },
  {
    id: "grc-analyst",
    titles: ["GRC Analyst", "Governance Risk and Compliance Analyst", "Security Compliance Analyst", "IT Risk Analyst", "信息安全合规专员"],
    phrases: ["make sure the company follows security standards", "prepare for security audits", "write security policies", "assess vendor security risks", "get the company soc 2 certified", "track security risks and controls", "run security risk assessments", "manage compliance for iso 27001"],
    skills: ["iso 27001", "soc 2", "nist", "risk assessment", "gdpr", "policy writing", "audit preparation"],
  },
  {
    id: "iam-engineer",
    titles: ["Identity and Access Management Engineer", "IAM Engineer", "Identity Engineer", "IAM Analyst", "身份认证工程师"],
    phrases: ["control who can access which systems", "manage logins and permissions", "set up single sign on for apps", "manage who can log in where", "set up two factor authentication", "manage user accounts and access levels", "set up okta for employees", "automate joiner mover leaver access"],
    skills: ["okta", "azure ad", "saml", "oauth", "sailpoint", "active directory", "mfa"],
  },
  {
    id: "network-security-engineer",
    titles: ["Network Security Engineer", "Firewall Engineer", "Network Security Administrator", "网络安全运维"],
    phrases: ["configure firewalls and vpns", "protect the network perimeter", "block malicious traffic", "manage company firewalls", "secure the network from attacks", "set up secure vpn access", "monitor network traffic for threats", "segment the company network"],
    skills: ["palo alto", "fortinet", "firewalls", "vpn", "ids/ips", "cisco asa", "network segmentation"],
  },
  {
    id: "cryptographer",
    titles: ["Cryptographer", "Cryptography Engineer", "Applied Cryptographer", "密码学工程师"],
    phrases: ["design encryption systems", "build secure cryptographic protocols", "implement encryption libraries", "work on encryption and cryptography", "make data unreadable to attackers", "design secure protocols", "research new encryption methods", "implement cryptography in software"],
    skills: ["cryptography", "tls", "pki", "c", "rust", "number theory", "zero knowledge proofs"],
  },
  {
    id: "vulnerability-analyst",
    titles: ["Vulnerability Management Analyst", "Vulnerability Analyst", "Vulnerability Engineer", "漏洞管理工程师"],
    phrases: ["scan systems for weaknesses", "track and prioritize security patches", "report which servers need fixes", "run vulnerability scans", "chase teams to patch servers", "find unpatched systems", "prioritize security fixes", "track vulnerabilities across servers"],
    skills: ["tenable", "qualys", "nessus", "cvss", "patch management", "asset inventory"],
  },
  {
    id: "security-consultant",
    titles: ["Cybersecurity Consultant", "Security Consultant", "Information Security Consultant", "安全顾问"],
    phrases: ["advise companies on cybersecurity", "assess clients' security and recommend fixes", "help businesses prepare for certifications", "check companies' security for weaknesses", "give security advice to clients", "audit security for client companies", "write security recommendations", "advise on compliance and security"],
    skills: ["risk assessment", "penetration testing", "iso 27001", "security audits", "client communication", "nist"],
  },
];
