import type { Occupation } from "./occupations.ts";

/** Business platforms, architecture, systems programming, tooling and emerging technology. */
export const SOFTWARE_SYSTEMS: Occupation[] = [
  {
    id: "wordpress-developer",
    titles: ["WordPress Developer", "WordPress Engineer", "WordPress Designer", "WordPress开发"],
    phrases: ["build wordpress websites", "create custom wordpress themes and plugins", "set up blogs and business sites", "customize wordpress sites for clients", "fix broken wordpress plugins", "set up woocommerce shops on wordpress", "speed up and secure wordpress sites", "turn designs into wordpress themes"],
    skills: ["wordpress", "php", "woocommerce", "elementor", "css", "mysql", "gutenberg"],
  },
  {
    id: "shopify-developer",
    titles: ["Shopify Developer", "Ecommerce Developer", "Shopify Expert", "Magento Developer", "电商开发"],
    phrases: ["build online stores", "customize shopify themes", "set up online shops for brands", "add payment and checkout features to stores", "build shopify stores for brands", "code custom online shop features", "connect online stores to payments and shipping", "build ecommerce websites", "migrate stores to shopify"],
    skills: ["shopify", "liquid", "javascript", "shopify apps", "magento", "payment gateways"],
  },
  {
    id: "salesforce-developer",
    titles: ["Salesforce Developer", "Salesforce Engineer", "Apex Developer", "Salesforce开发"],
    phrases: ["customize salesforce with code", "build apps on the salesforce platform", "write apex triggers and lightning components", "automate sales workflows in salesforce with code", "build custom crm features", "integrate salesforce with other systems", "migrate data into salesforce", "write code for the salesforce crm", "build salesforce apps for internal teams"],
    skills: ["apex", "salesforce", "lightning web components", "soql", "visualforce", "salesforce integrations"],
  },
  {
    id: "sap-consultant",
    titles: ["SAP Consultant", "SAP Functional Consultant", "SAP Analyst", "SAP顾问"],
    phrases: ["set up sap systems for companies", "configure erp modules for finance and logistics", "roll out sap to new business units", "configure sap for finance teams", "train users on sap", "map business processes into sap", "implement sap for large companies", "fix sap processes for users"],
    skills: ["sap s/4hana", "sap fico", "sap mm", "sap sd", "erp", "business process mapping"],
  },
  {
    id: "abap-developer",
    titles: ["ABAP Developer", "SAP ABAP Developer", "SAP Developer", "ABAP开发"],
    phrases: ["write code inside sap", "build custom sap reports and interfaces", "extend sap with custom programs", "write abap programs", "fix and enhance sap code", "build sap fiori apps", "build reports in sap", "maintain custom sap code"],
    skills: ["abap", "sap hana", "sap fiori", "odata", "cds views", "bapi"],
  },
  {
    id: "erp-developer",
    titles: ["ERP Developer", "Dynamics 365 Developer", "NetSuite Developer", "Odoo Developer", "ERP开发"],
    phrases: ["customize business management software", "build integrations for erp systems", "automate finance and inventory workflows in the erp", "write scripts for netsuite", "connect the erp to online stores", "build custom modules for odoo", "customize dynamics 365 for businesses", "write code for the company's erp"],
    skills: ["microsoft dynamics 365", "netsuite", "x++", "suitescript", "odoo", "sql"],
  },
  {
    id: "software-architect",
    titles: ["Software Architect", "Application Architect", "Technical Architect", "Chief Architect", "Systems Architect", "架构师", "软件架构师", "系统架构师"],
    phrases: ["design how large software systems fit together", "make high level technical decisions", "plan the structure of big applications", "choose technologies and patterns for a platform", "design the big picture of a software system", "decide how services talk to each other", "draw architecture diagrams for developers", "plan systems that scale to millions of users", "guide teams on technical design"],
    skills: ["system design", "microservices", "domain driven design", "cloud architecture", "uml", "event driven architecture", "scalability"],
  },
  {
    id: "enterprise-architect",
    titles: ["Enterprise Architect", "IT Architect", "Enterprise Solutions Architect", "企业架构师"],
    phrases: ["align it systems with business strategy", "map the company's technology landscape", "set technology standards across a large organization", "plan which systems a big company should use", "simplify a large company's it landscape", "govern technology choices across the enterprise", "plan long term technology roadmaps", "decide which software the business buys"],
    skills: ["togaf", "archimate", "it strategy", "cloud migration", "it governance", "application portfolio management"],
  },
  {
    id: "integration-engineer",
    titles: ["Integration Engineer", "Integration Developer", "Middleware Engineer", "API Integration Specialist", "集成工程师"],
    phrases: ["connect different software systems together", "build integrations between apps", "move data between business systems automatically", "connect apps with apis and webhooks", "sync data between crm and billing systems", "build connectors to third party services", "make different tools share data", "link legacy systems to new platforms", "automate data flows between software"],
    skills: ["rest apis", "mulesoft", "kafka", "soap", "boomi", "etl", "webhooks"],
  },
  {
    id: "systems-software-engineer",
    titles: ["Systems Software Engineer", "Kernel Engineer", "Operating Systems Engineer", "Linux Kernel Developer", "Device Driver Engineer", "系统软件工程师", "内核开发", "驱动开发工程师"],
    phrases: ["work on operating system internals", "write linux kernel code", "write device drivers for hardware", "build low level system software", "work on the linux kernel", "write low level operating system code", "build drivers so hardware works with the os", "debug crashes deep in the system"],
    skills: ["c", "linux kernel", "device drivers", "memory management", "gdb", "assembly", "concurrency"],
  },
  {
    id: "compiler-engineer",
    titles: ["Compiler Engineer", "Compiler Developer", "Programming Languages Engineer", "编译器工程师", "编译器开发"],
    phrases: ["build compilers and programming languages", "optimize how code is translated to machine instructions", "write language tooling and interpreters", "make programming languages faster", "work on llvm and gcc", "build compilers for new chips", "design new programming languages", "write code optimizers and code generators"],
    skills: ["llvm", "c++", "mlir", "code generation", "static analysis", "gcc", "type systems"],
  },
  {
    id: "distributed-systems-engineer",
    titles: ["Distributed Systems Engineer", "Backend Infrastructure Engineer", "Storage Systems Engineer", "Database Internals Engineer", "分布式系统工程师", "分布式系统", "分布式存储"],
    phrases: ["build systems that run across many machines", "design large scale storage and messaging systems", "make databases replicate and scale", "build databases that never lose data", "scale systems to millions of requests", "design fault tolerant backend systems", "build message queues and storage engines", "make many servers agree and stay consistent"],
    skills: ["distributed systems", "consensus algorithms", "kafka", "golang", "java", "cassandra", "raft"],
  },
  {
    id: "performance-engineer",
    titles: ["Performance Engineer", "Software Performance Engineer", "性能工程师", "性能优化工程师"],
    phrases: ["make software run faster", "find and fix slow code", "profile applications for bottlenecks", "cut latency and memory use", "speed up slow apps and services", "measure and improve system speed", "make code use less cpu and memory", "tune databases and jvms for speed"],
    skills: ["profiling", "benchmarking", "flame graphs", "linux perf", "jvm tuning", "c++"],
  },
  {
    id: "build-release-engineer",
    titles: ["Build Engineer", "Release Engineer", "Build and Release Engineer", "Release Manager", "构建工程师", "发布工程师"],
    phrases: ["ship software releases", "maintain build pipelines for large code bases", "package and release new versions", "speed up slow builds", "keep the build system fast and green", "manage version control and branches", "automate app store releases", "run the release process for a product"],
    skills: ["ci/cd", "jenkins", "bazel", "gradle", "git", "release management", "artifactory"],
  },
  {
    id: "mainframe-developer",
    titles: ["Mainframe Developer", "COBOL Developer", "COBOL Programmer", "Mainframe Programmer", "大型机开发"],
    phrases: ["maintain old banking systems", "write cobol on ibm mainframes", "keep legacy batch jobs running", "write cobol for banks and insurers", "modernize old mainframe code", "keep old ibm systems running", "run batch jobs for banks", "maintain decades old business code"],
    skills: ["cobol", "jcl", "db2", "cics", "z/os", "vsam"],
  },
  {
    id: "rpa-developer",
    titles: ["RPA Developer", "UiPath Developer", "Process Automation Developer", "RPA开发"],
    phrases: ["automate repetitive office tasks with bots", "build software robots for business processes", "automate data entry between systems", "build bots that click through software", "automate copy paste work between apps", "save office staff hours of manual work", "automate boring office work with software robots", "build uipath bots for finance teams"],
    skills: ["uipath", "automation anywhere", "blue prism", "power automate", "vba", "process automation"],
  },
  {
    id: "low-code-developer",
    titles: ["Low-Code Developer", "Power Platform Developer", "Power Apps Developer", "Citizen Developer", "低代码开发"],
    phrases: ["build business apps without much code", "create internal tools with drag and drop", "automate workflows for office teams", "build apps in power apps", "make simple business apps for teams", "build forms and workflows without coding", "build internal apps with retool", "automate approvals and forms in microsoft 365"],
    skills: ["power apps", "power automate", "outsystems", "mendix", "sharepoint", "retool"],
  },
  {
    id: "desktop-developer",
    titles: ["Desktop Application Developer", "Desktop Developer", "Qt Developer", "Electron Developer", "桌面开发", "桌面应用开发"],
    phrases: ["build apps for windows and mac computers", "make desktop software", "write cross platform desktop applications", "code windows software", "build mac apps", "make programs to install on computers", "build electron apps", "write software that runs on laptops"],
    skills: ["electron", "qt", "wpf", "c++", "c#", "swift", "installer packaging"],
  },
  {
    id: "blockchain-developer",
    titles: ["Blockchain Developer", "Blockchain Engineer", "Smart Contract Developer", "Solidity Developer", "Web3 Developer", "Crypto Engineer", "区块链工程师", "区块链开发", "智能合约开发"],
    phrases: ["write smart contracts", "build crypto and defi apps", "develop on ethereum", "build decentralized applications", "code decentralized finance apps", "build nft and token projects", "work at a crypto startup", "build bitcoin and ethereum software", "build web3 apps that connect to wallets", "develop blockchain protocols", "write solidity for defi protocols"],
    skills: ["solidity", "ethereum", "web3.js", "rust", "hardhat", "defi", "cryptography", "evm"],
  },
  {
    id: "ar-vr-developer",
    titles: ["AR/VR Developer", "VR Developer", "AR Developer", "XR Developer", "Virtual Reality Developer", "Augmented Reality Developer", "Metaverse Developer", "虚拟现实开发", "增强现实开发", "VR开发"],
    phrases: ["build virtual reality experiences", "make augmented reality apps", "develop for headsets like quest and vision pro", "build immersive 3d worlds", "make vr games", "build apps for virtual reality headsets", "create ar filters and effects", "place digital objects in the real world"],
    skills: ["unity", "unreal engine", "openxr", "arkit", "arcore", "3d math", "c#", "webxr"],
  },
  {
    id: "quant-developer",
    titles: ["Quantitative Developer", "Quant Developer", "Trading Systems Developer", "Low Latency Developer", "量化开发", "量化开发工程师"],
    phrases: ["build trading systems", "write fast code for trading firms", "connect trading strategies to exchanges", "code trading algorithms", "build low latency systems for hedge funds", "build market data feeds", "turn quant research into production code", "write c++ for a trading desk", "build backtesting tools for quants"],
    skills: ["c++", "python", "low latency", "kdb+", "trading systems", "fix protocol", "linux"],
  },
  {
    id: "search-engineer",
    titles: ["Search Engineer", "Search Relevance Engineer", "Search Infrastructure Engineer", "搜索工程师", "搜索开发工程师"],
    phrases: ["build search engines", "make search results more relevant", "tune ranking for product search", "index documents for fast search", "improve the search box of a product", "build search for millions of documents", "make site search results accurate", "run elasticsearch clusters"],
    skills: ["elasticsearch", "lucene", "solr", "information retrieval", "learning to rank", "opensearch", "vector search"],
  },
  {
    id: "open-source-developer",
    titles: ["Open Source Developer", "Open Source Engineer", "Open Source Maintainer", "开源开发工程师"],
    phrases: ["maintain open source projects", "work on code that anyone can use", "review community pull requests", "get paid to write open source", "write code in public on github", "maintain popular libraries and frameworks", "contribute to linux and open source tools", "maintain a popular github project"],
    skills: ["git", "github", "community management", "code review", "linux", "documentation"],
  },
];
