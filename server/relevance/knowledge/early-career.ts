import type { Occupation } from "./occupations.ts";

/** Internships, student jobs and first jobs after graduating. */
export const EARLY_CAREER: Occupation[] = [
  {
    id: "software-engineering-intern",
    titles: ["Software Engineering Intern", "Software Engineering Internship", "Software Engineer Intern", "Software Intern", "Software Developer Intern", "Engineering Intern", "Developer Intern", "Programming Intern", "Web Developer Intern", "开发实习生", "软件开发实习生", "研发实习生"],
    phrases: ["summer internship writing code", "internship for computer science students", "learn to code on a real engineering team", "student job building software", "paid summer coding internship", "get programming experience as a student", "build software projects during university", "intern at a tech startup over the summer", "write code alongside mentors", "co op placement for engineering students", "coding internship before graduation"],
    skills: ["data structures", "algorithms", "git", "python", "java", "javascript", "unit testing", "code review"],
  },
  {
    id: "new-grad-software-engineer",
    titles: ["New Grad Software Engineer", "New Grad Engineer", "Graduate Software Engineer", "Junior Software Engineer", "Junior Developer", "Entry Level Software Engineer", "Associate Software Engineer", "Junior Web Developer", "应届生", "应届毕业生"],
    phrases: ["first job after a computer science degree", "entry level coding job for recent graduates", "start a software career out of college", "junior developer mentored by seniors", "software job for a bootcamp graduate", "early career software developer", "new graduate on an engineering team", "learn on the job with mentorship", "break into tech as a beginner programmer", "first coding job", "rotational program for new grads"],
    skills: ["data structures", "algorithms", "git", "javascript", "python", "java", "sql", "testing"],
  },
  {
    id: "data-intern",
    titles: ["Data Science Intern", "Data Science Internship", "Data Analyst Intern", "Machine Learning Intern", "Data Intern", "Analytics Intern", "AI Intern", "Junior Data Analyst", "Junior Data Scientist"],
    phrases: ["summer internship analyzing data", "student job with data and spreadsheets", "internship for statistics and math students", "clean data and build charts as an intern", "train machine learning models as a student", "ai research internship at university", "learn sql and python on real data", "entry level data job for graduates"],
    skills: ["python", "sql", "excel", "pandas", "statistics", "machine learning", "tableau"],
  },
  {
    id: "intern",
    titles: ["Intern", "Student Intern", "Internship", "Working Student", "Trainee", "实习生"],
    phrases: ["summer job for college students", "student job during university", "internship to gain experience", "side job while studying at university", "learn how a business runs as a student", "first job out of school", "placement year for undergraduates", "paid internship for students", "assist a team on projects while at college", "graduate trainee program", "short internship for recent graduates"],
    skills: ["communication", "microsoft office", "research", "teamwork", "excel", "presentation skills"],
  },
];
