import type { Occupation } from "./occupations.ts";

/** Business platforms, architecture, systems programming, tooling and emerging technology. */
export const SOFTWARE_SYSTEMS: Occupation[] = [
  {
    id: "wordpress-developer",
    titles: ["WordPress Developer", "WordPress Engineer", "WordPress Designer", "WordPress开发"],
    phrases: ["build wordpress websites", "create custom wordpress themes and plugins", "set up blogs and business sites"],
    skills: ["wordpress", "php", "woocommerce", "elementor", "css", "mysql", "gutenberg"],
  },
  {
    id: "shopify-developer",
    titles: ["Shopify Developer", "Ecommerce Developer", "Shopify Expert", "Magento Developer", "电商开发"],
    phrases: ["build online stores", "customize shopify themes", "set up online shops for brands", "add payment and checkout features to stores"],
    skills: ["shopify", "liquid", "javascript", "shopify apps", "magento", "payment gateways"],
  },
  {
    id: "salesforce-developer",
    titles: ["Salesforce Developer", "Salesforce Engineer", "Apex Developer", "Salesforce开发"],
    phrases: ["customize salesforce with code", "build apps on the salesforce platform", "write apex triggers and lightning components"],
    skills: ["apex", "salesforce", "lightning web components", "soql", "visualforce", "salesforce integrations"],
  },
  {
    id: "sap-consultant",
    titles: ["SAP Consultant", "SAP Functional Consultant", "SAP Analyst", "SAP顾问"],
    phrases: ["set up sap systems for companies", "configure erp modules for finance and logistics", "roll out sap to new business units"],
    skills: ["sap s/4hana", "sap fico", "sap mm", "sap sd", "erp", "business process mapping"],
  },
  {
    id: "abap-developer",
    titles: ["ABAP Developer", "SAP ABAP Developer", "SAP Developer", "ABAP开发"],
    phrases: ["write code inside sap", "build custom sap reports and interfaces", "extend sap with custom programs"],
    skills: ["abap", "sap hana", "sap fiori", "odata", "cds views", "bapi"],
  },
  {
    id: "erp-developer",
    titles: ["ERP Developer", "Dynamics 365 Developer", "NetSuite Developer", "Odoo Developer", "ERP开发"],
    phrases: ["customize business management software", "build integrations for erp systems", "automate finance and inventory workflows in the erp"],
    skills: ["microsoft dynamics 365", "netsuite", "x++", "suitescript", "odoo", "sql"],
  },
  {
    id: "software-architect",
    titles: ["Software Architect", "Application Architect", "Technical Architect", "Chief Architect", "Systems Architect", "架构师", "软件架构师", "系统架构师"],
    phrases: ["design how large software systems fit together", "make high level technical decisions", "plan the structure of big applications", "choose technologies and patterns for a platform"],
    skills: ["system design", "microservices", "domain driven design", "cloud architecture", "uml", "event driven architecture", "scalability"],
  },
  {
    id: "enterprise-architect",
    titles: ["Enterprise Architect", "IT Architect", "Enterprise Solutions Architect", "企业架构师"],
    phrases: ["align it systems with business strategy", "map the company's technology landscape", "set technology standards across a large organization"],
    skills: ["togaf", "archimate", "it strategy", "cloud migration", "it governance", "application portfolio management"],
  },
  {
    id: "integration-engineer",
    titles: ["Integration Engineer", "Integration Developer", "Middleware Engineer", "API Integration Specialist", "集成工程师"],
    phrases: ["connect different software systems together", "build integrations between apps", "move data between business systems automatically"],
    skills: ["rest apis", "mulesoft", "kafka", "soap", "boomi", "etl", "webhooks"],
  },
  {
    id: "systems-software-engineer",
    titles: ["Systems Software Engineer", "Kernel Engineer", "Operating Systems Engineer", "Linux Kernel Developer", "Device Driver Engineer", "系统软件工程师", "内核开发", "驱动开发工程师"],
    phrases: ["work on operating system internals", "write linux kernel code", "write device drivers for hardware", "build low level system software"],
    skills: ["c", "linux kernel", "device drivers", "memory management", "gdb", "assembly", "concurrency"],
  },
  {
    id: "compiler-engineer",
    titles: ["Compiler Engineer", "Compiler Developer", "Programming Languages Engineer", "编译器工程师", "编译器开发"],
    phrases: ["build compilers and programming languages", "optimize how code is translated to machine instructions", "write language tooling and interpreters"],
    skills: ["llvm", "c++", "mlir", "code generation", "static analysis", "gcc", "type systems"],
  },
  {
    id: "distributed-systems-engineer",
    titles: ["Distributed Systems Engineer", "Backend Infrastructure Engineer", "Storage Systems Engineer", "Database Internals Engineer", "分布式系统工程师", "分布式系统", "分布式存储"],
    phrases: ["build systems that run across many machines", "design large scale storage and messaging systems", "make databases replicate and scale"],
    skills: ["distributed systems", "consensus algorithms", "kafka", "golang", "java", "cassandra", "raft"],
  },
  {
    id: "performance-engineer",
    titles: ["Performance Engineer", "Software Performance Engineer", "性能工程师", "性能优化工程师"],
    phrases: ["make software run faster", "find and fix slow code", "profile applications for bottlenecks", "cut latency and memory use"],
    skills: ["profiling", "benchmarking", "flame graphs", "linux perf", "jvm tuning", "c++"],
  },
  {
    id: "build-release-engineer",
    titles: ["Build Engineer", "Release Engineer", "Build and Release Engineer", "Release Manager", "构建工程师", "发布工程师"],
    phrases: ["ship software releases", "maintain build pipelines for large code bases", "package and release new versions", "speed up slow builds"],
    skills: ["ci/cd", "jenkins", "bazel", "gradle", "git", "release management", "artifactory"],
  },
  {
    id: "mainframe-developer",
    titles: ["Mainframe Developer", "COBOL Developer", "COBOL Programmer", "Mainframe Programmer", "大型机开发"],
    phrases: ["maintain old banking systems", "write cobol on ibm mainframes", "keep legacy batch jobs running"],
    skills: ["cobol", "jcl", "db2", "cics", "z/os", "vsam"],
  },
  {
    id: "rpa-developer",
    titles: ["RPA Developer", "UiPath Developer", "Process Automation Developer", "RPA开发"],
    phrases: ["automate repetitive office tasks with bots", "build software robots for business processes", "automate data entry between systems"],
    skills: ["uipath", "automation anywhere", "blue prism", "power automate", "vba", "process automation"],
  },
  {
    id: "low-code-developer",
    titles: ["Low-Code Developer", "Power Platform Developer", "Power Apps Developer", "Citizen Developer", "低代码开发"],
    phrases: ["build business apps without much code", "create internal tools with drag and drop", "automate workflows for office teams"],
    skills: ["power apps", "power automate", "outsystems", "mendix", "sharepoint", "retool"],
  },
  {
    id: "desktop-developer",
    titles: ["Desktop Application Developer", "Desktop Developer", "Qt Developer", "Electron Developer", "桌面开发", "桌面应用开发"],
    phrases: ["build apps for windows and mac computers", "make desktop software", "write cross platform desktop applications"],
    skills: ["electron", "qt", "wpf", "c++", "c#", "swift", "installer packaging"],
  },
  {
    id: "blockchain-developer",
    titles: ["Blockchain Developer", "Blockchain Engineer", "Smart Contract Developer", "Solidity Developer", "Web3 Developer", "Crypto Engineer", "区块链工程师", "区块链开发", "智能合约开发"],
    phrases: ["write smart contracts", "build crypto and defi apps", "develop on ethereum", "build decentralized applications"],
    skills: ["solidity", "ethereum", "web3.js", "rust", "hardhat", "defi", "cryptography", "evm"],
  },
  {
    id: "ar-vr-developer",
    titles: ["AR/VR Developer", "VR Developer", "AR Developer", "XR Developer", "Virtual Reality Developer", "Augmented Reality Developer", "Metaverse Developer", "虚拟现实开发", "增强现实开发", "VR开发"],
    phrases: ["build virtual reality experiences", "make augmented reality apps", "develop for headsets like quest and vision pro", "build immersive 3d worlds"],
    skills: ["unity", "unreal engine", "openxr", "arkit", "arcore", "3d math", "c#", "webxr"],
  },
  {
    id: "quant-developer",
    titles: ["Quantitative Developer", "Quant Developer", "Trading Systems Developer", "Low Latency Developer", "量化开发", "量化开发工程师"],
    phrases: ["build trading systems", "write fast code for trading firms", "connect trading strategies to exchanges"],
    skills: ["c++", "python", "low latency", "kdb+", "trading systems", "fix protocol", "linux"],
  },
  {
    id: "search-engineer",
    titles: ["Search Engineer", "Search Relevance Engineer", "Search Infrastructure Engineer", "搜索工程师", "搜索开发工程师"],
    phrases: ["build search engines", "make search results more relevant", "tune ranking for product search", "index documents for fast search"],
    skills: ["elasticsearch", "lucene", "solr", "information retrieval", "learning to rank", "opensearch", "vector search"],
  },
  {
    id: "open-source-developer",
    titles: ["Open Source Developer", "Open Source Engineer", "Open Source Maintainer", "开源开发工程师"],
    phrases: ["maintain open source projects", "work on code that anyone can use", "review community pull requests"],
    skills: ["git", "github", "community management", "code review", "linux", "documentation"],
  },
];
